import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareLocalIds } from '../sort-keys.js';
import { maxLocalIdKeyBytes, writeLocalIdKey } from './local-id-key.js';

const keyOf = (id: string) => {
  const utf8 = Buffer.from(id, 'utf8');
  const out = Buffer.alloc(maxLocalIdKeyBytes(utf8.length));
  return out.subarray(0, writeLocalIdKey(utf8, out));
};
const sign = (x: number) => (x < 0 ? -1 : x > 0 ? 1 : 0);
const id = fc.oneof(
  fc.nat().map(String),
  fc.bigInt({ min: 0n, max: 10n ** 16n }).map(String),
  fc.constantFrom('0', '00', '01', '-1', '1.0', '999999999999999', '1000000000000000', 's1', 's10', '', 'é', '\uffff', '😀'),
  fc.string({ unit: 'binary', maxLength: 6 }),
);

describe('local id keys', () => {
  it('compare as compareLocalIds: decimal ids first by value, then the rest by code units', () => {
    fc.assert(
      fc.property(id, id, (a, b) => {
        expect(sign(Buffer.compare(keyOf(a), keyOf(b)))).toBe(sign(compareLocalIds(a, b)));
      }),
      { numRuns: 3000, seed: 11, endOnFailure: true },
    );
  });
});
