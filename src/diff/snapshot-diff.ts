import type { Catalog } from '../catalog/catalog.js';
import type { GenreRecord } from '../catalog/records.js';

/** The resource types a diff compares, as they are counted and reported. */
export const DIFF_TYPES = ['songs', 'albums', 'artists', 'playlists'] as const;
export type DiffType = (typeof DIFF_TYPES)[number];
const SINGULAR = { songs: 'song', albums: 'album', artists: 'artist', playlists: 'playlist' } as const;

export interface FieldChange {
  readonly field: string;
  readonly old: unknown;
  readonly new: unknown;
}

export interface TypeDiff {
  readonly old: number;
  readonly new: number;
  readonly added: number;
  readonly removed: number;
  /** Present on both sides with some field different. */
  readonly changed: number;
  /** Same local id, different catalog id: every client that stored the old id loses it. */
  readonly changedIds: number;
  /** Of `removed`, still in the new snapshot's records but taken down by its deletes set (omm takedown). */
  readonly takenDown: number;
  readonly samples: {
    readonly added: string[];
    readonly removed: string[];
    readonly changed: { id: string; fields: FieldChange[] }[];
    readonly changedIds: { id: string; old: string; new: string }[];
  };
}

export interface GenreDelta {
  readonly genre: string;
  readonly old: number;
  readonly new: number;
  readonly delta: number;
}

export interface DiffReport {
  readonly old: { buildId: string; dir: string };
  readonly new: { buildId: string; dir: string };
  /** Same build id: same raw input and compiler, so nothing can differ. */
  readonly identical: boolean;
  readonly types: Record<DiffType, TypeDiff>;
  readonly totals: { added: number; removed: number; changed: number; changedIds: number };
  /** Song counts per genre, only where they differ. */
  readonly genres: GenreDelta[];
  readonly seconds: number;
}

export interface DiffOptions {
  /** Ids listed per kind of change and type. */
  readonly sample?: number;
}

/**
 * Compares two snapshots record by record. Records are matched by local id through the old
 * snapshot's key table; equal packed bytes are equal records, and only records whose bytes
 * differ are decoded on both sides and compared field by field. Cost is one pass over each
 * side's records, with no index of either held in memory beyond a seen-bit per old record.
 */
export function diffCatalogs(oldCat: Catalog, newCat: Catalog, options: DiffOptions = {}): DiffReport {
  const started = process.hrtime.bigint();
  const sample = options.sample ?? 5;
  const types = {} as Record<DiffType, TypeDiff>;
  const identical = oldCat.buildId === newCat.buildId;
  for (const type of DIFF_TYPES) types[type] = identical ? sameType(oldCat.count(SINGULAR[type])) : diffType(oldCat, newCat, type, sample);
  const totals = { added: 0, removed: 0, changed: 0, changedIds: 0 };
  for (const t of Object.values(types)) {
    totals.added += t.added;
    totals.removed += t.removed;
    totals.changed += t.changed;
    totals.changedIds += t.changedIds;
  }
  return {
    old: { buildId: oldCat.buildId, dir: oldCat.snapshot.dir },
    new: { buildId: newCat.buildId, dir: newCat.snapshot.dir },
    identical,
    types,
    totals,
    genres: identical ? [] : genreDeltas(oldCat, newCat),
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
  };
}

function sameType(count: number): TypeDiff {
  return {
    old: count,
    new: count,
    added: 0,
    removed: 0,
    changed: 0,
    changedIds: 0,
    takenDown: 0,
    samples: { added: [], removed: [], changed: [], changedIds: [] },
  };
}

interface Identified {
  id: string;
  ommId?: string;
}

function diffType(oldCat: Catalog, newCat: Catalog, type: DiffType, sample: number): TypeDiff {
  const kind = SINGULAR[type];
  const oldTable = oldCat.records(kind);
  const newTable = newCat.records(kind);
  const oldIds = oldCat.keys(`${kind}.id`);
  const seen = new Uint8Array(oldTable.count);
  const samples: TypeDiff['samples'] = { added: [], removed: [], changed: [], changedIds: [] };
  let added = 0;
  let changed = 0;
  let changedIds = 0;
  let takenDown = 0;
  for (let ordinal = 0; ordinal < newTable.count; ordinal++) {
    const record = newTable.get<Identified>(ordinal);
    const oldOrdinal = oldIds.get(record.id);
    if (newCat.isDeleted(kind, ordinal)) {
      // In the records, not in service: removed, by a takedown when the old one served it (a
      // delta segment's removal is a removal, counted below).
      if (oldOrdinal >= 0 && !newCat.segments?.removed(kind, ordinal)) takenDown++;
      continue;
    }
    if (oldOrdinal < 0) {
      added++;
      if (samples.added.length < sample) samples.added.push(record.id);
      continue;
    }
    seen[oldOrdinal] = 1;
    if (oldTable.raw(oldOrdinal).equals(newTable.raw(ordinal))) continue;
    const before = oldTable.get<Identified>(oldOrdinal);
    const fields = fieldChanges(before as unknown as Record<string, unknown>, record as unknown as Record<string, unknown>);
    if (fields.length === 0) continue; // same values, packed differently
    changed++;
    if (samples.changed.length < sample) samples.changed.push({ id: record.id, fields });
    if (before.ommId !== undefined && before.ommId !== record.ommId) {
      changedIds++;
      if (samples.changedIds.length < sample)
        samples.changedIds.push({ id: record.id, old: `omm:${kind}:${before.ommId}`, new: `omm:${kind}:${record.ommId}` });
    }
  }
  let removed = 0;
  for (let ordinal = 0; ordinal < seen.length; ordinal++) {
    if (seen[ordinal] || oldCat.isDeleted(kind, ordinal)) continue;
    removed++;
    if (samples.removed.length < sample) samples.removed.push(oldTable.get<Identified>(ordinal).id);
  }
  return { old: oldCat.count(kind), new: newCat.count(kind), added, removed, changed, changedIds, takenDown, samples };
}

/** Fields whose values differ (compared as JSON), in the new record's field order. */
export function fieldChanges(before: Record<string, unknown>, after: Record<string, unknown>): FieldChange[] {
  const out: FieldChange[] = [];
  const names = new Set([...Object.keys(after), ...Object.keys(before)]);
  for (const field of names) {
    const a = before[field] ?? null;
    const b = after[field] ?? null;
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ field, old: a, new: b });
  }
  return out;
}

function genreCounts(cat: Catalog): Map<string, number> {
  const table = cat.records('genre');
  const counts = new Map<string, number>();
  for (let i = 0; i < table.count; i++) {
    const g: GenreRecord = cat.genre(i);
    counts.set(g.name, g.songCount);
  }
  return counts;
}

function genreDeltas(oldCat: Catalog, newCat: Catalog): GenreDelta[] {
  const before = genreCounts(oldCat);
  const after = genreCounts(newCat);
  const out: GenreDelta[] = [];
  for (const genre of new Set([...before.keys(), ...after.keys()])) {
    const o = before.get(genre) ?? 0;
    const n = after.get(genre) ?? 0;
    if (o !== n) out.push({ genre, old: o, new: n, delta: n - o });
  }
  return out.sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || (a.genre < b.genre ? -1 : a.genre > b.genre ? 1 : 0));
}
