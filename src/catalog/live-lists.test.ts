import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiveKeys, LiveOrder, LiveRelation, type KeyLookup, type Relation } from './live-lists.js';

/** One bit per ordinal set for `deleted`. */
function bitsOf(size: number, deleted: readonly number[]): Uint8Array {
  const bits = new Uint8Array((size + 8) >>> 3);
  for (const o of deleted) bits[o >>> 3] |= 1 << (o & 7);
  return bits;
}

const column = (values: Uint32Array) => ({ length: values.length, get: (i: number) => values[i], slice: (a: number, b: number) => values.slice(a, b) });

/** A permutation of 0..n-1 and a subset of it, taken down. */
const orderAndDeletes = fc
  .integer({ min: 0, max: 300 })
  .chain((n) => fc.tuple(fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }), fc.subarray([...Array(n).keys()])));

describe('lists under a deletes set, against filtering the whole list', () => {
  it('LiveOrder: length, get and every slice are those of the order with the taken-down removed', () => {
    fc.assert(
      fc.property(orderAndDeletes, fc.nat(320), fc.nat(40), ([order, deleted], from, size) => {
        const stored = Uint32Array.from(order);
        const dead = new Set(deleted);
        const expected = order.filter((o) => !dead.has(o));
        const rank = new Uint32Array(order.length);
        order.forEach((o, position) => {
          rank[o] = position;
        });
        const positions = Uint32Array.from(deleted.map((o) => rank[o])).sort();
        const live = new LiveOrder(column(stored), positions, bitsOf(order.length, deleted));
        expect(live.length).toBe(expected.length);
        expect([...live.slice(from, from + size)]).toEqual(expected.slice(from, from + size));
        if (from < expected.length) expect(live.get(from)).toBe(expected[from]);
      }),
    );
  });

  it('LiveRelation: counts and ranges of each source leave the taken-down out', () => {
    const targets = [[1, 2, 3, 4, 5], [], [5, 5, 2]];
    const stored: Relation = {
      sources: 3,
      count: (s) => targets[s].length,
      targetsOf: (s, from = 0, to = Number.MAX_SAFE_INTEGER) => Uint32Array.from(targets[s].slice(from, to)),
    };
    const live = new LiveRelation(stored, bitsOf(6, [2, 5]));
    expect([live.count(0), live.count(1), live.count(2)]).toEqual([3, 0, 0]);
    expect([...live.targetsOf(0)]).toEqual([1, 3, 4]);
    expect([...live.targetsOf(0, 1, 2)]).toEqual([3]);
    expect([...live.targetsOf(0, 2)]).toEqual([4]);
    expect([...live.targetsOf(2)]).toEqual([]);
  });

  it('LiveKeys: a key of a taken-down resource is not found', () => {
    const stored: KeyLookup = { get: (k) => (k === 'a' ? 1 : k === 'b' ? 2 : -1), getAll: (k) => (k === 'ab' ? [1, 2] : []), touch: () => 0 };
    const live = new LiveKeys(stored, bitsOf(3, [2]));
    expect([live.get('a'), live.get('b'), live.get('c')]).toEqual([1, -1, -1]);
    expect(live.getAll('ab')).toEqual([1]);
  });
});
