import { describe, expect, it } from 'vitest';
import { deletions, hashedTable, hashRun, sortByBytes, typoTable, wordSetHash } from './search-keys.js';

describe('search keys', () => {
  it('sorts strings by UTF-8 bytes, surrogate pairs after the last BMP characters', () => {
    const strings = ['b', 'a', '\uffe0x', '𝒜', 'é', 'z', '\ue000', '中', 'ab'];
    const byBytes = [...strings].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect(sortByBytes(strings)).toEqual(byBytes);
    expect(sortByBytes(strings).indexOf('𝒜')).toBe(strings.length - 1);
    expect(sortByBytes(['b', 'é', 'a'])).toEqual(['a', 'b', 'é']);
  });

  it('hashes a word set, not a sequence with repeats, and keeps the two hashes independent', () => {
    expect(wordSetHash([1, 2, 3])).toBe(wordSetHash(Uint32Array.from([1, 2, 3])));
    expect(wordSetHash([1, 2, 3])).not.toBe(wordSetHash([1, 2]));
    expect(wordSetHash([1, 2])).not.toBe(wordSetHash([1, 2], 1));
    expect(wordSetHash([70_000])).not.toBe(wordSetHash([70_001]));
  });

  it('drops repeated entries and finds a run of equal hashes', () => {
    const table = hashedTable([5, 3, 5, 5, 9], [1, 7, 1, 0, 2], 5);
    expect([...table.hashes]).toEqual([3, 5, 5, 9]);
    expect([...table.values]).toEqual([7, 0, 1, 2]);
    expect(hashRun(table.hashes, 5)).toEqual({ from: 1, to: 3 });
    expect(hashRun(table.hashes, 4)).toEqual({ from: 1, to: 1 });
  });

  it('keys each term under its one-deletion strings, by code point', () => {
    expect(deletions('abc').sort()).toEqual(['ab', 'ac', 'bc']);
    expect(deletions('aab').sort()).toEqual(['aa', 'ab']);
    expect(deletions('日本語')).toContain('日語');
    const table = typoTable(['love', 'ab', 'x'.repeat(40)]);
    // "ab" (2 characters) and the 40-character term are outside 3..33 and not keyed.
    expect(new Set(table.values)).toEqual(new Set([0]));
    expect(table.values.length).toBe(1 + deletions('love').length);
  });
});
