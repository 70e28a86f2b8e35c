import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FixedSorter } from './fixed-sort.js';

describe('FixedSorter', () => {
  it('orders records by their key words as unsigned numbers, ties in insertion order, across many runs, and removes its runs', () => {
    const sizes: number[] = [];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 65535, 65536), fc.nat({ max: 300 })), { maxLength: 8000, size: 'max' }),
        fc.integer({ min: 1, max: 3 }),
        (keys, width) => {
          const dir = mkdtempSync(join(tmpdir(), 'omm-fixed-'));
          const keyWords = Math.min(2, width);
          const sorter = new FixedSorter(dir, 'test', width, keyWords, 1); // 1,024 records an arena
          keys.forEach(([hi, lo], i) => sorter.add(hi, lo, i));
          expect(sorter.runCount).toBe(Math.max(0, Math.ceil(keys.length / 1024) - 1));
          const out: number[][] = [];
          sorter.drain((words, at) => out.push(Array.from(words.subarray(at, at + width))));
          const expected = keys
            .map(([hi, lo], i) => [hi, lo, i].slice(0, width))
            .map((r, i) => ({ r, i }))
            .sort((a, b) => {
              for (let k = 0; k < keyWords; k++) if (a.r[k] !== b.r[k]) return a.r[k] - b.r[k];
              return a.i - b.i;
            })
            .map(({ r }) => r);
          expect(out).toEqual(expected);
          expect(readdirSync(dir)).toEqual([]);
          sizes.push(keys.length);
        },
      ),
      { numRuns: 30, seed: 5, endOnFailure: true },
    );
    expect(Math.max(...sizes)).toBeGreaterThan(5000);
  });
});
