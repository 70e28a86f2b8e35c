import type { Catalog } from '../../catalog/catalog.js';
import { SegmentedOrder } from '../../catalog/segment-orders.js';
import { SEGMENT_TYPES } from '../../catalog/segments.js';
import { SEGMENT_ORDERS_TABLE } from '../../index-format/manifest.js';
import { ArrayTableWriter } from '../../index-format/tables/array-table.js';
import { OrderPositions } from './order-positions.js';
import { compareSortKeys, sortKeyOf, type SortableRecord, type SortKey } from './sort-order.js';

/** The types with precomputed orders. */
export const ORDERED_TYPES = ['song', 'album', 'artist', 'playlist'] as const;
export type OrderedType = (typeof ORDERED_TYPES)[number];

/** What the order patch of one type is made from. */
export interface PatchInputs {
  /** Global ordinals this delta holds, ascending. */
  readonly held: ArrayLike<number>;
  /** Global ordinals this delta takes out, ascending. */
  readonly removed: ArrayLike<number>;
  /** A resource's record once the delta is in. */
  readonly record: (g: number) => SortableRecord;
}

/** A delta's order patches as they are made, type by type. */
export interface OrderPatches {
  readonly writer: ArrayTableWriter;
  readonly arrays: Map<string, Uint32Array>;
}

export function orderPatches(): OrderPatches {
  return { writer: new ArrayTableWriter(), arrays: new Map() };
}

/**
 * The order patches of one type of a delta (segment-orders.ts reads them; order-patch.ts makes
 * the same from a full compile), added to `patches`, the types in ORDERED_TYPES order (the
 * table's bytes follow it): per order, every resource not served from the base once the delta is
 * in, in order, with its insertion point (the base position of the first base entry still served
 * after it). The earlier deltas' entries are kept in their order; this delta's are sorted and
 * placed by a binary search over the base's order, comparing records as the compile's orders do
 * (sort-order.ts): work in proportion to the delta, not the catalog.
 */
export function addInsertionPatches(prev: Catalog, type: OrderedType, typeInputs: PatchInputs, patches: OrderPatches): void {
  const add = (name: string, values: Uint32Array) => {
    patches.arrays.set(name, values);
    patches.writer.array(name, values);
  };
  const table = `${SEGMENT_TYPES[type]}.orders`;
  const base = prev.snapshot.arrays(table, 0);
  const baseRecords = prev.snapshot.records(SEGMENT_TYPES[type], 0);
  const served = baseServed(prev, type, typeInputs, baseRecords.count);
  const earlier = earlierPatch(prev, type);
  const baseVersion = cachedRecords((g) => baseRecords.get<SortableRecord>(g));
  const nextVersion = cachedRecords(typeInputs.record);
  const sorts = base
    .names()
    .filter((n) => n.startsWith('order.'))
    .map((n) => n.slice('order.'.length));
  for (const sort of sorts) {
    const compare = compareSortKeys(sort);
    const order = base.column(`order.${sort}`);
    const rank = base.column(`rank.${sort}`);
    const baseKey = cachedKeys((p) => sortKeyOf(sort, baseRecords.get<SortableRecord>(order.get(p))));
    const next = (p: number) => {
      while (p < order.length && !served(order.get(p))) p++;
      return p;
    };
    const held = Array.from(typeInputs.held, (g) => ({ g, key: sortKeyOf(sort, nextVersion(g)) })).sort((a, b) => compare(a.key, b.key));
    const placed: { g: number; at: number; key: SortKey | null }[] = [];
    let lo = 0;
    for (const { g, key } of held) {
      // A base resource whose key in this order did not change sorts where its base version
      // does: no search. Others are found by a binary search from the previous one's place.
      if (g < baseRecords.count && compare(sortKeyOf(sort, baseVersion(g)), key) === 0) {
        const after = rank.get(g) + 1;
        placed.push({ g, at: next(after), key });
        lo = Math.max(lo, after);
        continue;
      }
      lo = firstAfter(lo, order.length, (p) => compare(baseKey(p), key) > 0);
      placed.push({ g, at: next(lo), key });
    }
    const kept = earlier ? keptEntries(earlier, sort, typeInputs, next) : [];
    const merged = mergePatches(kept, placed, compare, (g) => sortKeyOf(sort, nextVersion(g)));
    add(
      `${type}.${sort}.ordinals`,
      Uint32Array.from(merged, (e) => e.g),
    );
    add(
      `${type}.${sort}.at`,
      Uint32Array.from(merged, (e) => e.at),
    );
  }
}

/** Whether a base ordinal's base version is served once the delta is in. */
function baseServed(prev: Catalog, type: OrderedType, inputs: PatchInputs, baseSize: number): (g: number) => boolean {
  const stale = staleBase(prev, type, inputs, baseSize);
  return (g) => stale[g] === 0;
}

/** Per base ordinal, 1 when its base version is not served once the delta is in (an earlier delta or this one holds it again, or took it out). */
function staleBase(prev: Catalog, type: OrderedType, inputs: PatchInputs, baseSize: number): Uint8Array {
  const out = new Uint8Array(baseSize);
  const segments = prev.segments;
  if (segments) for (const g of segments.stale(type)) out[g] = 1;
  for (const list of [inputs.held, inputs.removed]) for (let i = 0; i < list.length; i++) if (list[i] < baseSize) out[list[i]] = 1;
  return out;
}

/** An order once the delta is in (segment-orders.ts): the base's, less the stale, with the patch `addInsertionPatches` made. */
export function orderOnceIn(prev: Catalog, type: OrderedType, sort: string, patches: ReadonlyMap<string, Uint32Array>, inputs: PatchInputs): SegmentedOrder {
  const { order, rank, staleOrdinals } = baseOrder(prev, type, sort, inputs);
  return new SegmentedOrder(order, rank.slice(0, rank.length), staleOrdinals, patches.get(`${type}.${sort}.ordinals`)!, patches.get(`${type}.${sort}.at`)!);
}

/** Where each resource stands in an order once the delta is in, one at a time (order-positions.ts). */
export function positionsOnceIn(
  prev: Catalog,
  type: OrderedType,
  sort: string,
  patches: ReadonlyMap<string, Uint32Array>,
  inputs: PatchInputs,
): OrderPositions {
  const { rank, staleOrdinals } = baseOrder(prev, type, sort, inputs);
  return new OrderPositions(rank, staleOrdinals, patches.get(`${type}.${sort}.ordinals`)!, patches.get(`${type}.${sort}.at`)!);
}

/** The base's order and ranks of a sort, and the base ordinals not served from the base once the delta is in. */
function baseOrder(prev: Catalog, type: OrderedType, sort: string, inputs: PatchInputs) {
  const base = prev.snapshot.arrays(`${SEGMENT_TYPES[type]}.orders`, 0);
  const order = base.column(`order.${sort}`);
  const rank = base.column(`rank.${sort}`);
  const stale = staleBase(prev, type, inputs, order.length);
  const staleOrdinals: number[] = [];
  for (let g = 0; g < stale.length; g++) if (stale[g]) staleOrdinals.push(g);
  return { order, rank, staleOrdinals };
}

/** The newest delta's patch of a type, or null over an ordinary snapshot. */
function earlierPatch(prev: Catalog, type: OrderedType) {
  const segments = prev.segments;
  if (!segments) return null;
  const arrays = prev.snapshot.arrays(SEGMENT_ORDERS_TABLE, segments.count - 1);
  return { type, arrays };
}

/** The earlier deltas' entries this delta neither holds again nor takes out, each placed before the next base entry still served. */
function keptEntries(earlier: NonNullable<ReturnType<typeof earlierPatch>>, sort: string, inputs: PatchInputs, next: (p: number) => number) {
  const ordinals = earlier.arrays.column(`${earlier.type}.${sort}.ordinals`);
  const at = earlier.arrays.column(`${earlier.type}.${sort}.at`);
  const gone = new Set<number>([...Array.from(inputs.held), ...Array.from(inputs.removed)]);
  const out: { g: number; at: number; key: SortKey | null }[] = [];
  for (let i = 0; i < ordinals.length; i++) {
    const g = ordinals.get(i);
    if (!gone.has(g)) out.push({ g, at: next(at.get(i)), key: null });
  }
  return out;
}

/** Two patches, each in order, as one: by insertion point, then by the order's comparison. */
function mergePatches<E extends { g: number; at: number; key: SortKey | null }>(
  a: E[],
  b: E[],
  compare: (x: SortKey, y: SortKey) => number,
  keyOf: (g: number) => SortKey,
): E[] {
  const key = (e: E) => (e.key ??= keyOf(e.g));
  const out: E[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const before = a[i].at !== b[j].at ? a[i].at < b[j].at : compare(key(a[i]), key(b[j])) < 0;
    out.push(before ? a[i++] : b[j++]);
  }
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}

/** The first position in [lo, hi) where `after` holds (it holds from some position on), or hi. */
function firstAfter(lo: number, hi: number, after: (p: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (after(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * What the orders compare of each record, remembered per ordinal: a held resource's record, and
 * its base version, are compared in every order of its type, and decoded once.
 */
function cachedRecords(get: (g: number) => SortableRecord): (g: number) => SortableRecord {
  const cache = new Map<number, SortableRecord>();
  return (g) => {
    let r = cache.get(g);
    if (!r) {
      const { id, name, popularity, dateAdded, releaseDate } = get(g);
      cache.set(g, (r = { id, name, popularity, dateAdded, releaseDate }));
    }
    return r;
  };
}

/** A key function remembered per position (a binary search's first probes are every search's). */
function cachedKeys(key: (p: number) => SortKey): (p: number) => SortKey {
  const cache = new Map<number, SortKey>();
  return (p) => {
    let k = cache.get(p);
    if (!k) {
      k = key(p);
      if (cache.size < 1 << 16) cache.set(p, k);
    }
    return k;
  };
}
