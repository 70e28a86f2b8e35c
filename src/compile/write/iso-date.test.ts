import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoDate } from './iso-date.js';

describe('isoDate', () => {
  it('writes what Date.prototype.toISOString writes, for any time (and null for none)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 0, max: 253_402_300_799_999 }),
          fc.integer({ min: -8.64e15, max: 8.64e15 }),
          fc.double({ min: -1e13, max: 1e13, noNaN: true }),
        ),
        (ms) => {
          expect(isoDate(ms)).toBe(new Date(ms).toISOString());
        },
      ),
      { numRuns: 50_000 },
    );
    for (const ms of [0, 951_782_400_000, 4_107_456_000_000, 253_402_300_799_999, 253_402_300_800_000, -1])
      expect(isoDate(ms)).toBe(new Date(ms).toISOString());
    expect(isoDate(Number.NaN)).toBeNull();
  });
});
