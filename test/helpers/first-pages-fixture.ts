import type { SearchDocuments } from './search-columns.js';

// Common words (long postings: stored pages) and rare ones (live), with credited artists.
export const COMMON = ['love', 'night', 'fire', 'rain', 'gold', 'river', 'moon', 'lover', 'loving', 'niño', '夜'];
export function firstPagesDocuments(): SearchDocuments {
  let x = 17;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const rare = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x`);
  const artistNames = Array.from({ length: 30 }, () => `${pick(COMMON)} ${pick(rare)}`);
  const count = 4000;
  const names: string[] = [];
  const offsets = new Uint32Array(count + 1);
  const targets: number[] = [];
  for (let o = 0; o < count; o++) {
    const words = Array.from({ length: 1 + Math.floor(next() * 3) }, () => (next() < 0.2 ? pick(rare) : pick(COMMON)));
    names.push(words.join(' '));
    targets.push(Math.floor(next() * artistNames.length));
    offsets[o + 1] = targets.length;
  }
  const ordinals = Uint32Array.from({ length: count }, (_, i) => i).sort((a, b) => ((a * 7919) % count) - ((b * 7919) % count));
  return { type: 'song', ordinals, names, artists: { offsets, targets: Uint32Array.from(targets), artistNames } };
}
