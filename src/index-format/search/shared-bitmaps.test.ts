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
});
