import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberKeyWords } from './number-key.js';

const keyOf = (value: number, descending: boolean) => {
  const out = new Uint32Array(2);
  numberKeyWords(value, descending, out);
  return out;
};
/** Compares two keys as unsigned 64-bit numbers (high word, then low word). */
const compareKeys = (x: Uint32Array, y: Uint32Array) => Math.sign(x[0] - y[0]) || Math.sign(x[1] - y[1]);
/** orderByNumber's order: NaN last in both directions, -0 equal to 0. */
function expected(a: number, b: number, descending: boolean): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number(Number.isNaN(a)) - Number(Number.isNaN(b));
  if (a === b) return 0;
  return (a < b ? -1 : 1) * (descending ? -1 : 1);
}
const number = fc.oneof(
  fc.double(),
  fc.constantFrom(
    0,
    -0,
    Number.NaN,
    Number.MIN_VALUE,
    -Number.MIN_VALUE,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ),
);

describe('number keys', () => {
  it('compare as unsigned words the way orderByNumber orders numbers, ascending and descending', () => {
    fc.assert(
      fc.property(number, number, fc.boolean(), (a, b, descending) => {
        expect(compareKeys(keyOf(a, descending), keyOf(b, descending))).toBe(expected(a, b, descending));
      }),
      { numRuns: 5000, seed: 13, endOnFailure: true },
    );
  });
});
