import { describe, expect, it } from 'vitest';
import { TermBitmaps } from './shared-bitmaps.js';

/** An index of 256 documents whose term t is held by the documents 0..sizes[t]-1. */
function postingsOf(sizes: number[]) {
  const offsets = new Uint32Array(sizes.length + 1);
  sizes.forEach((n, t) => (offsets[t + 1] = offsets[t] + n));
  const postings = new Uint32Array(offsets[sizes.length]);
  sizes.forEach((n, t) =>
    postings.set(
      Uint32Array.from({ length: n }, (_, k) => k),
      offsets[t],
    ),
  );
  return (name: 'postings.offsets' | 'postings') => (name === 'postings' ? postings : offsets);
}

describe('TermBitmaps', () => {
  // A bitmap of 256 documents is 32 bytes; term 4 is held by too few documents (1 in 256 is the least).
  const sizes = [3, 200, 40, 120, 0];

  it('makes bitmaps for the dense terms first tested, while the budget lasts', () => {
    const bitmaps = new TermBitmaps(undefined, 256, sizes.length, postingsOf(sizes), 2 * 32);
    expect(bitmaps.of(4)).toBeNull();
    expect(bitmaps.of(2)).not.toBeNull();
    expect(bitmaps.of(0)).not.toBeNull();
    expect(bitmaps.of(1)).toBeNull();
    expect(bitmaps.kept).toBe(2);
  });

  it('one-time work uses the bitmaps made and makes none, leaving the budget to the searches served', () => {
    const bitmaps = new TermBitmaps(undefined, 256, sizes.length, postingsOf(sizes), 32);
    expect(bitmaps.of(1, false)).toBeNull();
    expect(bitmaps.of(3)).not.toBeNull();
    expect(bitmaps.of(3, false)).toBe(bitmaps.of(3));
    expect(bitmaps.kept).toBe(1);
  });

  it('sets the bits of the documents holding the term', () => {
    const map = new TermBitmaps(undefined, 256, sizes.length, postingsOf(sizes)).of(2)!;
    const held = Array.from({ length: 256 }, (_, r) => (map[r >>> 5] & (1 << (r & 31))) !== 0);
    expect(held.filter(Boolean).length).toBe(40);
    expect(held.slice(0, 40).every(Boolean)).toBe(true);
  });

  it('makes one bitmap of a range of terms (a typed prefix): the documents holding any of them', () => {
    const offsets = Uint32Array.from([0, 2, 5, 6]);
    const postings = Uint32Array.from([1, 40, 2, 40, 200, 7]);
    const bitmaps = new TermBitmaps(undefined, 256, 3, (name) => (name === 'postings' ? postings : offsets), 2 * 32);
    expect(bitmaps.ofRange(0, 2, false)).toBeNull();
    const map = bitmaps.ofRange(0, 3)!;
    const held = Array.from({ length: 256 }, (_, r) => r).filter((r) => (map[r >>> 5] & (1 << (r & 31))) !== 0);
    expect(held).toEqual([1, 2, 7, 40, 200]);
    expect(bitmaps.ofRange(0, 3, false)).toBe(map);
    // A range of one term is the term's own bitmap; the budget (two) is then spent.
    expect(bitmaps.ofRange(1, 2)).toBe(bitmaps.of(1));
    expect(bitmaps.ofRange(0, 2)).toBeNull();
    expect([bitmaps.kept, bitmaps.rangesKept]).toEqual([1, 1]);
  });
});
