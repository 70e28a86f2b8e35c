import { describe, expect, it } from 'vitest';
import { hashRun } from '../src/index-format/search/search-keys.js';
import { AscendingRun, gallop } from '../src/index-format/search/word-set-run.js';

/** The run of `hash` in [from, end) as a plain scan finds it. */
function scanned(hashes: Uint32Array, hash: number, from: number, end: number): { from: number; to: number } {
  let lo = from;
  while (lo < end && hashes[lo] < hash) lo++;
  let to = lo;
  while (to < end && hashes[to] === hash) to++;
  return { from: lo, to };
}

describe('hash runs and gallops over ascending arrays', () => {
  // Runs of every length from 0 to 3,000 (a word set thousands of documents share), seeded.
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const values: number[] = [];
  for (let hash = 0; hash < 400; hash += 1 + Math.floor(next() * 3)) {
    const length = next() < 0.1 ? Math.floor(next() * 3000) : Math.floor(next() * 12);
    for (let i = 0; i < length; i++) values.push(hash);
  }
  const hashes = Uint32Array.from(values);

  it('finds the run of every hash, within the whole array and within a window of it', () => {
    for (let hash = 0; hash < 402; hash++) {
      expect(hashRun(hashes, hash), `hash ${hash}`).toEqual(scanned(hashes, hash, 0, hashes.length));
      const from = Math.floor(hashes.length / 3);
      const end = Math.floor((hashes.length * 2) / 3);
      expect(hashRun(hashes, hash, from, end), `hash ${hash} in a window`).toEqual(scanned(hashes, hash, from, end));
    }
  });

  it('gallops to the first value not below the one asked, and answers membership in ascending order', () => {
    const ascending = Uint32Array.from(new Set(values.map((v, i) => v * 10_000 + i))).sort();
    for (let k = 0; k < 500; k++) {
      const from = Math.floor(next() * ascending.length);
      const value = Math.floor(next() * (ascending[ascending.length - 1] + 10));
      let want = from;
      while (want < ascending.length && ascending[want] < value) want++;
      expect(gallop(ascending, from, ascending.length, value)).toBe(want);
    }
    const held = new Set(Array.from(ascending).filter(() => next() < 0.5));
    const run = new AscendingRun(Uint32Array.from(held).sort(), 0, held.size);
    for (let value = 0; value <= ascending[ascending.length - 1] + 2; value += 1 + Math.floor(next() * 40))
      expect(run.holds(value), `${value}`).toBe(held.has(value));
  });
});
