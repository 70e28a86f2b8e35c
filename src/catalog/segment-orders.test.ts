import { describe, expect, it } from 'vitest';
import { SegmentedOrder } from './segment-orders.js';
import type { OrdinalColumn } from './live-lists.js';

/** A base order as a column, the base's rank of each ordinal, stale ordinals and a patch (ordinals with insertion points). */
function fixture(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const size = 500;
  const base = Uint32Array.from({ length: size }, (_, i) => i);
  for (let i = size - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [base[i], base[j]] = [base[j], base[i]];
  }
  const baseRank = new Uint32Array(size);
  base.forEach((ordinal, position) => (baseRank[ordinal] = position));
  const stale = [...base].filter(() => next() < 0.1);
  // The patch: stale ordinals held again and new ones, each placed before a base position (or at the end).
  const held = [...stale.filter(() => next() < 0.5), ...Array.from({ length: 40 }, (_, i) => size + i)];
  const placed = held.map((ordinal) => ({ ordinal, at: Math.floor(next() * (size + 1)) })).sort((a, b) => a.at - b.at);
  const column: OrdinalColumn = { length: size, get: (i) => base[i], slice: (from, to) => base.slice(from, to) };
  return { base, baseRank, stale, placed, column, size: size + 40 };
}

/** The merged order written out: at each base position, the patch entries placed there, then the base entry unless stale. */
function expectedOrder({ base, stale, placed }: ReturnType<typeof fixture>): number[] {
  const staleSet = new Set(stale);
  const out: number[] = [];
  let j = 0;
  for (let p = 0; p < base.length; p++) {
    while (j < placed.length && placed[j].at === p) out.push(placed[j++].ordinal);
    if (!staleSet.has(base[p])) out.push(base[p]);
  }
  while (j < placed.length) out.push(placed[j++].ordinal);
  return out;
}

describe('SegmentedOrder', () => {
  for (const seed of [1, 7, 42]) {
    it(`answers the merged order by search and, materialized, by one read (seed ${seed})`, () => {
      const f = fixture(seed);
      const order = new SegmentedOrder(
        f.column,
        f.baseRank,
        f.stale,
        Uint32Array.from(f.placed.map((p) => p.ordinal)),
        Uint32Array.from(f.placed.map((p) => p.at)),
      );
      const expected = expectedOrder(f);
      expect(order.length).toBe(expected.length);
      expect(Array.from({ length: order.length }, (_, k) => order.get(k))).toEqual(expected);
      const ranks = order.ranks(f.size);
      expected.forEach((ordinal, k) => expect(ranks[ordinal]).toBe(k));
      order.materialize();
      expect(Array.from({ length: order.length }, (_, k) => order.get(k))).toEqual(expected);
      expect(Array.from(order.slice(3, 60))).toEqual(expected.slice(3, 60));
      expect(() => order.get(order.length)).toThrow(RangeError);
    });
  }
});
