import type { Catalog } from '../../catalog/catalog.js';
import { SEGMENT_TYPES, type SegmentType } from '../../catalog/segments.js';
import { VIEW_TYPES, viewBytes, type ViewInterface, type ViewType } from '../../catalog/views.js';
import { identityOf, RELATION_TARGETS } from './identity.js';
import type { StationRecord } from '../../catalog/records.js';

/**
 * What a delta between two compiled snapshots holds (docs/segments.md): `prev`, the snapshot in
 * service (ordinary or segmented), and `next`, a full compile of the changed raw catalog. A
 * resource keeps its global ordinal when `prev` serves one of the same identity; the others are
 * numbered after every ordinal `prev` has. A resource is held by the delta when it is new or
 * when its record, a view or a relationship list (in global ordinals) differs; one `prev` serves
 * and `next` lacks is removed.
 *
 * Reads every resource of both: the reference a delta compile is checked against, and a way to
 * turn any full compile into a delta, not the fast path.
 */
export interface TypePlan {
  /** `next` ordinal -> global ordinal. */
  readonly toGlobal: Uint32Array;
  /** The global ordinals the delta holds, ascending. */
  readonly held: Uint32Array;
  /** For each held ordinal, its `next` ordinal. */
  readonly heldFrom: Uint32Array;
  /** Global ordinals `prev` serves and `next` does not have, ascending. */
  readonly removed: Uint32Array;
}

export type DeltaPlan = Record<SegmentType, TypePlan>;

const TYPES = Object.keys(SEGMENT_TYPES) as SegmentType[];

export function planDelta(prev: Catalog, next: Catalog): DeltaPlan {
  const numbering = {} as Record<SegmentType, { toGlobal: Uint32Array; isNew: Uint8Array; removed: Uint32Array }>;
  for (const type of TYPES) numbering[type] = numberType(prev, next, type);
  const relations = relationNames(next);
  const plan = {} as DeltaPlan;
  for (const type of TYPES) {
    const { toGlobal, isNew, removed } = numbering[type];
    const held: [number, number][] = [];
    const own = relations.filter((name) => name.startsWith(`${type}.`));
    for (let n = 0; n < toGlobal.length; n++) {
      const g = toGlobal[n];
      const changed = () =>
        type === 'station'
          ? stationDiffers(prev, next, g, n, numbering.song.toGlobal)
          : differs(prev, next, type, g, n) || own.some((name) => listDiffers(prev, next, name, g, n, numbering[RELATION_TARGETS[name]].toGlobal));
      if (isNew[n] || changed()) {
        held.push([g, n]);
      }
    }
    held.sort((a, b) => a[0] - b[0]);
    plan[type] = { toGlobal, held: Uint32Array.from(held, (h) => h[0]), heldFrom: Uint32Array.from(held, (h) => h[1]), removed };
  }
  return plan;
}

/** Global ordinals for `next`'s resources of a type, and `prev`'s it no longer has. */
function numberType(prev: Catalog, next: Catalog, type: SegmentType) {
  const before = prev.records(type);
  const served = new Map<string, number>();
  for (let g = 0; g < before.count; g++) if (!isOut(prev, type, g)) served.set(identityOf(type, before.get(g)), g);
  const after = next.records(type);
  const toGlobal = new Uint32Array(after.count);
  const isNew = new Uint8Array(after.count);
  let fresh = before.count;
  for (let n = 0; n < after.count; n++) {
    const identity = identityOf(type, after.get(n));
    const g = served.get(identity);
    if (g === undefined) {
      toGlobal[n] = fresh++;
      isNew[n] = 1;
    } else {
      toGlobal[n] = g;
      served.delete(identity);
    }
  }
  return { toGlobal, isNew, removed: Uint32Array.from([...served.values()].sort((a, b) => a - b)) };
}

/**
 * Whether `prev` does not serve the resource: an earlier delta took it out (any type; publishDelta
 * refuses a takedown snapshot, so there is no deletes set). Brought back, it is numbered afresh
 * and held, rather than mapped to the ordinal left out of service.
 */
function isOut(cat: Catalog, type: SegmentType, ordinal: number): boolean {
  return cat.segments?.removed(type, ordinal) ?? false;
}

function relationNames(cat: Catalog): string[] {
  return Object.keys(RELATION_TARGETS).filter((name) => cat.hasRelation(name));
}

/** Whether the record or a stored view of the resource differs. */
function differs(prev: Catalog, next: Catalog, type: SegmentType, g: number, n: number): boolean {
  if (JSON.stringify(prev.records(type).get(g)) !== JSON.stringify(next.records(type).get(n))) return true;
  if (!(VIEW_TYPES as readonly string[]).includes(type) || !next.views) return false;
  for (const iface of ['v1', 'om'] as ViewInterface[]) {
    const before = prev.views?.get(iface, type as ViewType, g) ?? null;
    const after = next.views.get(iface, type as ViewType, n);
    if (!before || !after || !viewBytes(before).equals(viewBytes(after))) return true;
  }
  return false;
}

/**
 * Whether a station differs in what a delta must hold: a custom station's record or tracks; a
 * derived station's record but its track count, its tracks being made again as it is served
 * over segments (live-stations.ts).
 */
function stationDiffers(prev: Catalog, next: Catalog, g: number, n: number, songToGlobal: Uint32Array): boolean {
  const before = prev.records('station').get<StationRecord>(g);
  const after = next.records('station').get<StationRecord>(n);
  if (after.seed.kind === 'custom') return JSON.stringify(before) !== JSON.stringify(after) || listDiffers(prev, next, 'station.tracks', g, n, songToGlobal);
  const { trackCount: _before, ...was } = before;
  const { trackCount: _after, ...is } = after;
  return JSON.stringify(was) !== JSON.stringify(is);
}

/** Whether a relationship list of the resource, in global ordinals, differs. */
function listDiffers(prev: Catalog, next: Catalog, name: string, g: number, n: number, targetToGlobal: Uint32Array): boolean {
  const after = next.relation(name).targetsOf(n);
  if (!prev.hasRelation(name)) return after.length > 0;
  const before = prev.relation(name).targetsOf(g);
  if (before.length !== after.length) return true;
  for (let i = 0; i < after.length; i++) if (before[i] !== targetToGlobal[after[i]]) return true;
  return false;
}
