import type { Catalog } from '../../catalog/catalog.js';
import { SEGMENT_TYPES, type SegmentType } from '../../catalog/segments.js';
import { ArrayTableWriter } from '../../index-format/tables/array-table.js';
import type { DeltaPlan } from './delta-plan.js';

/** The types with precomputed orders (each in the array table `<records>.orders`). */
const ORDERED = ['song', 'album', 'artist', 'playlist'] as const;

/**
 * The order patches a delta stores (segment-orders.ts reads them): for every order of `next`,
 * each resource not served from the base once this delta is in (any delta holds it), in `next`'s
 * order, with its insertion point: the base position of the first base entry after it. A base
 * entry the deltas leave alone keeps its place relative to the others (its sort key did not
 * change), so the base order less the stale, with the patch inserted, is `next`'s order.
 */
export function orderPatches(prev: Catalog, plan: DeltaPlan, next: Catalog): ArrayTableWriter {
  const writer = new ArrayTableWriter();
  for (const type of ORDERED) {
    const table = `${SEGMENT_TYPES[type]}.orders`;
    const baseSize = prev.snapshot.records(SEGMENT_TYPES[type], 0).count;
    const fromBase = baseServed(prev, plan, type, baseSize);
    const base = prev.snapshot.arrays(table, 0);
    const sorts = next.snapshot
      .arrays(table)
      .names()
      .filter((n) => n.startsWith('order.'));
    for (const sort of sorts.map((n) => n.slice('order.'.length))) {
      const rank = base.column(`rank.${sort}`);
      const order = next.order(type as 'song', sort);
      const toGlobal = plan[type].toGlobal;
      const ordinals: number[] = [];
      const at: number[] = [];
      let following = baseSize;
      for (let i = order.length - 1; i >= 0; i--) {
        const g = toGlobal[order.get(i)];
        if (fromBase[g]) following = rank.get(g);
        else {
          ordinals.push(g);
          at.push(following);
        }
      }
      writer.array(`${type}.${sort}.ordinals`, Uint32Array.from(ordinals.reverse()));
      writer.array(`${type}.${sort}.at`, Uint32Array.from(at.reverse()));
    }
  }
  return writer;
}

/** Per global ordinal, 1 when the base's version is the one served once the delta is in. */
function baseServed(prev: Catalog, plan: DeltaPlan, type: SegmentType, baseSize: number): Uint8Array {
  let size = baseSize;
  for (const g of plan[type].toGlobal) if (g >= size) size = g + 1;
  const out = new Uint8Array(size);
  for (let g = 0; g < baseSize; g++) out[g] = prev.segments && prev.segments.segmentOf(type, g) !== 0 ? 0 : 1;
  for (let g = 0; g < baseSize; g++) if (prev.segments?.removed(type, g)) out[g] = 0;
  for (const g of plan[type].held) out[g] = 0;
  for (const g of plan[type].removed) out[g] = 0;
  return out;
}
