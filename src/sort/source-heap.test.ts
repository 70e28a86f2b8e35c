import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SourceHeap } from './source-heap.js';

/** Merges sorted lists through a SourceHeap, returning [value, list] pairs in the order it yields them. */
function merge(lists: number[][]): [number, number][] {
  const at = lists.map(() => 0);
  const live = lists.flatMap((list, i) => (list.length > 0 ? [i] : []));
  const heap = new SourceHeap(live, (a, b) => lists[a][at[a]] < lists[b][at[b]] || (lists[a][at[a]] === lists[b][at[b]] && a < b));
  const out: [number, number][] = [];
  while (heap.size > 0) {
    const s = heap.top;
    out.push([lists[s][at[s]], s]);
    at[s]++;
    heap.advanced(at[s] === lists[s].length);
  }
  return out;
}

describe('SourceHeap (tree of losers)', () => {
  it('merges any number of sorted sources in order, equal records by source number', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 12 }), { maxLength: 19 }), (raw) => {
        const lists = raw.map((l) => [...l].sort((a, b) => a - b));
        const expected = lists.flatMap((l, s) => l.map((v) => [v, s] as [number, number])).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
        expect(merge(lists)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
