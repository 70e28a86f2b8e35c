import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { smallestLiveRanks, smallestRanks } from './smallest-ranks.js';

const sortedSmallest = (values: number[], count: number) => values.sort((a, b) => a - b).slice(0, Math.max(0, count));

describe('smallestRanks', () => {
  const cases = fc.record({
    values: fc.uniqueArray(fc.nat({ max: 500 }), { maxLength: 80 }),
    cut: fc.tuple(fc.nat({ max: 80 }), fc.nat({ max: 80 })),
    count: fc.integer({ min: -1, max: 90 }),
    hidden: fc.uniqueArray(fc.nat({ max: 500 }), { maxLength: 200 }),
  });

  it('keeps the count smallest of a range, ascending', () => {
    fc.assert(
      fc.property(cases, ({ values, cut, count }) => {
        const [from, to] = [Math.min(...cut, values.length), Math.min(Math.max(...cut), values.length)];
        const got = smallestRanks(Uint32Array.from(values), from, to, count);
        expect([...got]).toEqual(sortedSmallest(values.slice(from, to), count));
      }),
    );
  });

  it('leaves the hidden out as if the range never held them', () => {
    fc.assert(
      fc.property(cases, ({ values, cut, count, hidden }) => {
        const [from, to] = [Math.min(...cut, values.length), Math.min(Math.max(...cut), values.length)];
        const gone = new Set(hidden);
        const got = smallestLiveRanks(Uint32Array.from(values), from, to, count, gone);
        expect([...got]).toEqual(
          sortedSmallest(
            values.slice(from, to).filter((v) => !gone.has(v)),
            count,
          ),
        );
      }),
    );
  });
});
