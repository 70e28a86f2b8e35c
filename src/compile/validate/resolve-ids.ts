import type { CatalogType } from '../../catalog/catalog-ids.js';
import type { MemoryBudget } from '../memory-budget.js';
import { mapU32Column, NumberColumnWriter, StringColumn } from '../spill/columns.js';
import { FixedSorter, type FixedSorterState } from '../../sort/fixed-sort.js';
import { SpillDir } from '../spill/spill-dir.js';
import { besideWorker, runWorkerJob } from '../worker-job.js';
import { DeferredIssues, type DeferredEntry } from './deferred-issues.js';
import { compactEntity, openEntity, type EntityFiles } from './entity-files.js';
import type { ParsedCatalog } from './parse-raw.js';
import { ENTITY_NAMES, NONE, REFERRERS, refKey, ROW_BITS, ROW_MASK, type EntityName } from './raw-refs.js';

const CATALOG_TYPE: Partial<Record<EntityName, CatalogType>> = { artists: 'artist', albums: 'album', songs: 'song' };

/** After resolution: each entity's columns by ordinal, and each reference column as ordinals by row. */
export interface ResolvedCatalog {
  readonly entities: Record<EntityName, EntityFiles>;
  /** `file.column` -> u32 column by row of the referring file: the ordinal named, or NONE. */
  readonly refs: ReadonlyMap<string, string>;
  /** Rows of files.csv whose id repeats an earlier row's, ascending. */
  readonly duplicateFiles: readonly number[];
}

/** A hash group's cursor state: the rows of distinct ids seen in it so far. */
function sameHash(words: Uint32Array, at: number, h: Uint32Array): boolean {
  return words[at] === h[0] && words[at + 1] === h[1] && words[at + 2] === h[2];
}

/**
 * Finds duplicate ids and catalog ids and resolves every reference, by draining each entity's
 * sorted (id hash, kind, row) records: in a group of equal hashes the entity's own rows come
 * first, the first of an id is kept, a later one is a duplicate (ids compared as text), and the
 * references after them name the kept row. Rejected rows are reported through `deferred`, in
 * entity order. The songs (whose sorter holds every reference to a song: the most records by
 * far) are resolved on a worker while this thread resolves the others; each side sorts within
 * half of the budget's room.
 */
export async function resolveIds(parsed: ParsedCatalog, spill: SpillDir, budget: MemoryBudget, deferred: DeferredIssues): Promise<ResolvedCatalog> {
  const rows: Record<string, number> = {};
  for (const name of ENTITY_NAMES) {
    for (const { file } of REFERRERS[name])
      rows[file] = file === 'explore_items' ? parsed.exploreItems.length : parsed.refs[file as keyof ParsedCatalog['refs']].rows;
  }
  const half = budget.share(0.5);
  const jobOf = (name: EntityName, prefix: string): ResolveEntityJob => ({
    name,
    files: parsed.entities[name].files,
    ids: parsed.entities[name].ids.handOff(),
    omm: parsed.entities[name].omm?.handOff() ?? null,
    spillPath: spill.path,
    spillPrefix: prefix,
    sorterBytes: half.sorterBytes(REFERRERS[name].length + 1),
    rows,
  });
  const songsJob = jobOf('songs', 'resolve-songs-');
  const transfer = [songsJob.ids.arena.buffer, ...(songsJob.omm ? [songsJob.omm.arena.buffer] : [])] as ArrayBuffer[];
  const songs = runWorkerJob('resolve songs', './resolve-entity-worker.js', import.meta.url, songsJob, () => resolveEntity(songsJob), undefined, transfer);
  const done = new Map<EntityName, ResolvedEntity>();
  const filesDeferred = new DeferredIssues();
  const [duplicateFiles, resolvedSongs] = await besideWorker(songs, () => {
    for (const name of ENTITY_NAMES) if (name !== 'songs') done.set(name, resolveEntity(jobOf(name, `resolve-${name}-`)));
    return duplicateFileRows(parsed, filesDeferred);
  });
  done.set('songs', resolvedSongs);
  const entities = {} as Record<EntityName, EntityFiles>;
  const refs = new Map<string, string>();
  for (const name of ENTITY_NAMES) {
    const { files, resolved, issues } = done.get(name)!;
    entities[name] = files;
    for (const [key, path] of resolved) refs.set(key, path);
    deferred.addAll(issues);
  }
  deferred.addAll(filesDeferred.entries());
  return { entities, refs, duplicateFiles };
}

/** One entity's resolution as it crosses to a worker: paths, its sorters' state, row counts. */
export interface ResolveEntityJob {
  readonly name: EntityName;
  readonly files: EntityFiles;
  readonly ids: FixedSorterState;
  readonly omm: FixedSorterState | null;
  /** The spill directory, and the prefix of the names this job gives its files there. */
  readonly spillPath: string;
  readonly spillPrefix: string;
  /** Arena bytes for each of the job's sorters. */
  readonly sorterBytes: number;
  /** Rows of every file that refers to an entity. */
  readonly rows: Readonly<Record<string, number>>;
}

export interface ResolvedEntity {
  /** The entity's columns by ordinal (rejected rows dropped). */
  readonly files: EntityFiles;
  /** `file.column` key (refKey) -> u32 column of ordinals by row. */
  readonly resolved: [string, string][];
  readonly issues: DeferredEntry[];
}

/** Resolves one entity (see resolveIds); runs on either thread. */
export function resolveEntity(job: ResolveEntityJob): ResolvedEntity {
  const { name } = job;
  const spill = SpillDir.attach(job.spillPath, job.spillPrefix);
  const deferred = new DeferredIssues();
  const parsed = { files: job.files, ids: FixedSorter.resume(job.ids), omm: job.omm ? FixedSorter.resume(job.omm) : null };
  const rowsOf = (file: string): number => job.rows[file];
  const bytes = job.sorterBytes;
  const cols = openEntity(parsed.files);
  const kinds = REFERRERS[name];
  const bySlot = kinds.map((k) => new FixedSorter(spill.path, spill.name(`resolved-${k.file}.${k.column}`), 2, 1, bytes));
  const dropped = new Set<number>();

  const hash = new Uint32Array(3);
  let keepers: number[] = [];
  let started = false;
  const cursor = parsed.ids.cursor();
  try {
    while (cursor.next()) {
      const { words, at } = cursor;
      if (!started || !sameHash(words, at, hash)) {
        hash.set(words.subarray(at, at + 3));
        keepers = [];
        started = true;
      }
      const kind = words[at + 3] >>> ROW_BITS;
      const row = words[at + 3] & ROW_MASK;
      if (kind === 0) {
        const first = keptWithSameText(keepers, cols.ids, row);
        if (first !== undefined) {
          dropped.add(row);
          deferred.add(name, cols.lines[row], {
            code: 'E_RAW_DUPLICATE',
            column: 'id',
            message: `id ${JSON.stringify(cols.ids.get(row))} is already used on line ${cols.lines[first]}`,
          });
        } else if (keepers.length > 0) {
          throw new Error(
            `${name}.csv: ids ${JSON.stringify(cols.ids.get(keepers[0]))} and ${JSON.stringify(cols.ids.get(row))} share a 96-bit hash; rename one`,
          );
        } else {
          keepers.push(row);
        }
      } else if (keepers.length > 0) {
        bySlot[kind - 1].add(row, keepers[0]);
      }
      // else: a reference to an id no row defines; it stays NONE.
    }
  } finally {
    cursor.close();
  }
  if (parsed.omm) findCatalogIdClashes(name, parsed.omm, cols.ommIds, cols.lines, dropped, deferred);

  const gone = Float64Array.from(dropped).sort();
  const ordinalOf = (slot: number): number => {
    if (dropped.has(slot)) return NONE;
    let lo = 0;
    let hi = gone.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (gone[mid] < slot) lo = mid + 1;
      else hi = mid;
    }
    return slot - lo;
  };
  const resolved: [string, string][] = [];
  kinds.forEach((k, i) => {
    const out = new NumberColumnWriter(spill.file(`${k.file}.${k.column}.${name}`), 'u32');
    bySlot[i].drain((words, at) => {
      const row = words[at];
      while (out.length < row) out.push(NONE);
      out.push(ordinalOf(words[at + 1]));
    });
    const rows = rowsOf(k.file);
    while (out.length < rows) out.push(NONE);
    out.finish();
    resolved.push([refKey(k.file, k.column, name), out.path]);
  });
  return { files: compactEntity(spill, name, parsed.files, [...gone]), resolved, issues: deferred.entries() };
}

/**
 * The kept row of a hash group whose text in `column` is `row`'s, if any. The first row of a
 * group (the usual case) reads no text.
 */
function keptWithSameText(keepers: readonly number[], column: StringColumn, row: number): number | undefined {
  if (keepers.length === 0) return undefined;
  const text = column.bytes(row);
  return keepers.find((k) => column.bytes(k).equals(text));
}

/** A catalog id used by two rows (both kept so far): the later row is rejected. */
function findCatalogIdClashes(
  name: EntityName,
  sorter: FixedSorter,
  ommIds: StringColumn,
  lines: Uint32Array,
  dropped: Set<number>,
  deferred: DeferredIssues,
): void {
  const type = CATALOG_TYPE[name]!;
  const hash = new Uint32Array(3);
  let keepers: number[] = [];
  let started = false;
  sorter.drain((words, at) => {
    if (!started || !sameHash(words, at, hash)) {
      started = true;
      hash.set(words.subarray(at, at + 3));
      keepers = [];
    }
    const slot = words[at + 3];
    if (dropped.has(slot)) return;
    const first = keptWithSameText(keepers, ommIds, slot);
    if (first === undefined) {
      keepers.push(slot);
      return;
    }
    dropped.add(slot);
    deferred.add(name, lines[slot], {
      code: 'E_RAW_DUPLICATE',
      column: 'omm_id',
      message: `catalog id omm:${type}:${ommIds.get(slot)} is already used on line ${lines[first]}`,
    });
  });
}

/** files.csv rows whose id an earlier row already has. */
function duplicateFileRows(parsed: ParsedCatalog, deferred: DeferredIssues): number[] {
  const ids = StringColumn.open(parsed.refs.files.columns.ids);
  const lines = mapU32Column(parsed.refs.files.lines);
  const hash = new Uint32Array(3);
  let keepers: number[] = [];
  const rows: number[] = [];
  let started = false;
  parsed.fileIds.drain((words, at) => {
    if (!started || !sameHash(words, at, hash)) {
      started = true;
      hash.set(words.subarray(at, at + 3));
      keepers = [];
    }
    const row = words[at + 3];
    const first = keptWithSameText(keepers, ids, row);
    if (first === undefined) {
      keepers.push(row);
      return;
    }
    rows.push(row);
    deferred.add('files', lines[row], {
      code: 'E_RAW_DUPLICATE',
      column: 'id',
      message: `file id ${JSON.stringify(ids.get(row))} is already used on line ${lines[first]}`,
    });
  });
  return rows.sort((a, b) => a - b);
}
