import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortFixedRecords } from './fixed-record-sort.js';

/** The records as arrays, in a plain stable sort's order by their first keyWords words. */
function reference(words: number[], width: number, keyWords: number): number[][] {
  const records = Array.from({ length: words.length / width }, (_, i) => words.slice(i * width, i * width + width));
  return records
    .map((r, i) => ({ r, i }))
    .sort((a, b) => {
      for (let k = 0; k < keyWords; k++) if (a.r[k] !== b.r[k]) return a.r[k] - b.r[k];
      return a.i - b.i;
    })
    .map(({ r }) => r);
}

/**
 * Words that reach every path: random (settled by the first word), few distinct values (long runs
 * tying word after word, a word shared by a whole range), values with only a few low or high
 * bits varying (digits skipped), the extremes of u32.
 */
const word = fc.oneof(
  fc.nat({ max: 0xffffffff }),
  fc.constantFrom(0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 65535, 65536),
  fc.nat({ max: 3 }),
  fc.nat({ max: 15 }).map((n) => (n << 28) >>> 0),
);

describe('sortFixedRecords', () => {
  it('orders records of 1 to 4 words by their key words as unsigned numbers, ties by place, on every path', () => {
    const sizes: number[] = [];
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.tuple(word, word, word), { maxLength: 6000, size: 'max' }),
        fc.nat({ max: 3 }),
        (width, keyCount, rows, variant) => {
          const keyWords = Math.min(keyCount, width);
          const words: number[] = [];
          rows.forEach(([a, b, c], i) => {
            // Variants: as drawn; few first words; few first words and one second word (a run sharing a word moves on); one first word.
            const first = [a, a % 7, a % 7, 9][variant];
            const record = [first, variant === 2 ? 5 : variant === 3 ? b % 3 : b, c, i].slice(0, width);
            // The last word numbers the record, so stability shows in the values.
            if (width > 1) record[width - 1] = i;
            words.push(...record);
          });
          const records = Uint32Array.from(words);
          sortFixedRecords(records, new Uint32Array(records.length), rows.length, width, keyWords);
          const out = Array.from({ length: rows.length }, (_, i) => Array.from(records.subarray(i * width, i * width + width)));
          expect(out).toEqual(reference(words, width, keyWords));
          sizes.push(rows.length);
        },
      ),
      { numRuns: 60, seed: 11, endOnFailure: true },
    );
    expect(Math.max(...sizes)).toBeGreaterThan(4000);
  });

  it('sorts only the records it is given, with scratch left from a larger sort', () => {
    const records = Uint32Array.from([5, 0, 3, 1, 5, 2, 1, 3, 9, 9]);
    const scratch = new Uint32Array(10).fill(7);
    sortFixedRecords(records, scratch, 4, 2, 1);
    expect([...records]).toEqual([1, 3, 3, 1, 5, 0, 5, 2, 9, 9]);
  });
});
