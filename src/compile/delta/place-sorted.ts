import type { SortKey } from './sort-order.js';

/**
 * `kept` (already in an order) with `added` placed among them by that order: each added entry
 * by a binary search over `kept`, so only the keys the searches visit are made. A list patched
 * this way is the list a full compile sorts, when `kept` lost no entry whose key changed.
 */
export function placeSorted(
  kept: readonly number[],
  added: readonly number[],
  compare: (a: SortKey, b: SortKey) => number,
  keyOf: (g: number) => SortKey,
): number[] {
  if (added.length === 0) return [...kept];
  const cache = new Map<number, SortKey>();
  const keptKey = (i: number) => {
    let k = cache.get(i);
    if (!k) cache.set(i, (k = keyOf(kept[i])));
    return k;
  };
  const sorted = added.map((g) => ({ g, key: keyOf(g) })).sort((a, b) => compare(a.key, b.key));
  const out: number[] = [];
  let from = 0;
  for (const { g, key } of sorted) {
    let lo = from;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(keptKey(mid), key) > 0) hi = mid;
      else lo = mid + 1;
    }
    for (let i = from; i < lo; i++) out.push(kept[i]);
    out.push(g);
    from = lo;
  }
  for (let i = from; i < kept.length; i++) out.push(kept[i]);
  return out;
}
