import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OrdinalColumn } from '../../catalog/live-lists.js';
import { SegmentedOrder } from '../../catalog/segment-orders.js';
import { ordinalBitmap, OrderPositions, placeByPosition } from './order-positions.js';

/** A base order (a permutation), some of it stale, and a patch of stale and new ordinals placed in it, as a delta's order patch is. */
const orders = fc
  .record({ size: fc.integer({ min: 1, max: 300 }), fresh: fc.integer({ min: 0, max: 40 }) })
  .chain(({ size, fresh }) =>
    fc.record({
      base: fc.shuffledSubarray([...Array(size).keys()], { minLength: size, maxLength: size }),
      stale: fc.subarray([...Array(size).keys()]),
      again: fc.double({ min: 0, max: 1, noNaN: true }),
      at: fc.array(fc.integer({ min: 0, max: size }), { minLength: size + fresh, maxLength: size + fresh }),
      fresh: fc.constant(fresh),
    }),
  )
  .map(({ base, stale, again, at, fresh }) => {
    const size = base.length;
    const held = [...stale.filter((_, i) => i < stale.length * again), ...Array.from({ length: fresh }, (_, i) => size + i)];
    const placed = held.map((ordinal, i) => ({ ordinal, at: at[i] })).sort((a, b) => a.at - b.at);
    const baseRank = new Uint32Array(size);
    base.forEach((ordinal, position) => (baseRank[ordinal] = position));
    return { base: Uint32Array.from(base), baseRank, stale, placed, size: size + fresh };
  });

const column = (values: Uint32Array): OrdinalColumn => ({ length: values.length, get: (i) => values[i], slice: (a, b) => values.slice(a, b) });

describe('OrderPositions', () => {
  it("gives each served resource its position in the merged order, and places a list's additions where that order puts them", () => {
    fc.assert(
      fc.property(orders, fc.double({ min: 0, max: 1, noNaN: true }), ({ base, baseRank, stale, placed, size }, share) => {
        const patch = Uint32Array.from(placed, (p) => p.ordinal);
        const at = Uint32Array.from(placed, (p) => p.at);
        const merged = new SegmentedOrder(column(base), baseRank, stale, patch, at);
        const ranks = merged.ranks(size);
        const positions = new OrderPositions(column(baseRank), stale, patch, at);
        const served = Array.from(merged.slice(0, merged.length));
        for (const g of served) expect(positions.of(g)).toBe(ranks[g]);
        // A list in merged order: some served resources kept, some taken out (stale), the rest added.
        const list = served.filter((_, i) => i % 3 !== 0);
        const added = served.filter((_, i) => i % 3 === 0 && i < served.length * share);
        const out = list.filter((_, i) => i % 5 === 4);
        const expected = [...list.filter((g) => !out.includes(g)), ...added].sort((a, b) => ranks[a] - ranks[b]);
        expect(Array.from(placeByPosition(list, ordinalBitmap(out), added, positions))).toEqual(expected);
      }),
      { numRuns: 200, seed: 20261208 },
    );
  });
});
