import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArenaKeySort, RECORD_HEAD } from './arena-key-sort.js';

/** An arena as ExternalSorter lays it out ([key length][value length][key][value], value empty) and its index. */
function arenaOf(keys: Uint8Array[]): { arena: Buffer; index: Uint32Array } {
  const arena = Buffer.alloc(keys.reduce((sum, k) => sum + RECORD_HEAD + k.length, 0) + 1);
  const index = new Uint32Array(keys.length);
  let at = 1; // not at 0, so an offset is never mistaken for a record number
  keys.forEach((k, i) => {
    index[i] = at;
    arena.writeUInt32LE(k.length, at);
    arena.writeUInt32LE(0, at + 4);
    arena.set(k, at + RECORD_HEAD);
    at += RECORD_HEAD + k.length;
  });
  return { arena: arena.subarray(0, Math.max(at, 1)), index };
}

/** Record numbers in byte order of their keys, ties in number order. */
const reference = (keys: Uint8Array[]): number[] => keys.map((_, i) => i).sort((a, b) => Buffer.compare(keys[a], keys[b]) || a - b);

function sorted(sort: ArenaKeySort, keys: Uint8Array[]): number[] {
  const { arena, index } = arenaOf(keys);
  const byOffset = new Map([...index].map((at, i) => [at, i]));
  return [...sort.sort(arena, index, keys.length)].map((at) => byOffset.get(at)!);
}

/**
 * Keys that reach every path: shared prefixes of any length (ranges that tie for many words, so
 * they are read again deeper), trailing zero bytes (keys that pad to the same words but differ
 * in length), exact duplicates (stability), big-endian numbers with most high bits constant
 * (digits skipped), and counts from a few records (insertion sorts) to thousands (radix passes).
 */
const keyFamily = fc.oneof(
  fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 3000, size: 'max' }),
  fc
    .tuple(
      fc.array(fc.uint8Array({ maxLength: 30 }), { minLength: 1, maxLength: 3 }),
      fc.array(fc.tuple(fc.nat(), fc.uint8Array({ maxLength: 12 })), { maxLength: 5000, size: 'max' }),
    )
    .map(([prefixes, rest]) => rest.map(([p, tail]) => Buffer.concat([prefixes[p % prefixes.length], tail]))),
  fc
    .array(fc.tuple(fc.constantFrom('ab', 'abcdefgh', 'abcd', ''), fc.nat({ max: 9 })), { maxLength: 2000, size: 'max' })
    .map((parts) => parts.map(([text, zeros]) => Buffer.concat([Buffer.from(text), Buffer.alloc(zeros)]))),
  fc.array(fc.nat({ max: 5000 }), { maxLength: 6000, size: 'max' }).map((ns) => ns.map((n) => Buffer.from([0, 0, n >> 8, n & 0xff, 7]))),
);

describe('ArenaKeySort', () => {
  it('orders records by key bytes, ties by insertion, on every path (tiny, small, radix; shared prefixes, zero padding)', () => {
    const sizes: number[] = [];
    const sort = new ArenaKeySort(); // reused across runs: work left from a larger sort must not leak into a smaller one
    fc.assert(
      fc.property(keyFamily, fc.nat({ max: 4 }), (keys, copies) => {
        // Duplicates spread through the input.
        const withCopies = [...keys];
        for (let c = 0; c < copies && keys.length > 0; c++) withCopies.push(...keys.filter((_, i) => i % (c + 2) === 0));
        expect(sorted(sort, withCopies)).toEqual(reference(withCopies));
        sizes.push(withCopies.length);
      }),
      { numRuns: 60, seed: 7, endOnFailure: true },
    );
    expect(Math.max(...sizes)).toBeGreaterThan(5000);
  });

  it('sorts 100,000 name-like keys (long ranges tying word after word) as a plain sort does', () => {
    const words = ['love', 'the', 'night', 'love the', 'a', 'heart', 'fire', ''];
    let x = 11;
    const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
    const keys = Array.from({ length: 100_000 }, (_, i) => {
      const parts: string[] = [];
      for (let w = next() % 5; w >= 0; w--) parts.push(words[next() % words.length]);
      const rank = Buffer.alloc(4);
      rank.writeUInt32BE(i % 3 === 0 ? 0 : next() % 1000);
      return Buffer.concat([Buffer.from(parts.join(' ')), Buffer.from([0]), rank]);
    });
    expect(sorted(new ArenaKeySort(), keys)).toEqual(reference(keys));
  });

  it('handles nothing, one record and empty keys', () => {
    const sort = new ArenaKeySort();
    expect(sorted(sort, [])).toEqual([]);
    expect(sorted(sort, [Buffer.from('x')])).toEqual([0]);
    const empties = Array.from({ length: 100 }, (_, i) => (i % 10 === 0 ? Buffer.from([0]) : Buffer.alloc(0)));
    expect(sorted(sort, empties)).toEqual(reference(empties));
  });
});
