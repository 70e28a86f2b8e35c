import { PAIR_NOT_COUNTED, type PairCounts } from '../../index-format/search/first-pages.js';
import type { SearchIndex } from '../../index-format/search/search-index.js';

/**
 * Terms counted at most: the densest, whose two-word searches cost the most live. 256 terms are
 * a 256 KiB matrix and, at 1M songs, about a second of counting.
 */
export const PAIR_TERMS_MAX = 256;

/**
 * Counts, for every two of the index's densest terms (those that may have a bitmap and are held
 * by `minPostings` documents or more, up to `maxTerms`, most documents first), how many of the first `scan` documents of the one with
 * fewer documents (the all-words tier's driver) also hold the other: the all-words tier's
 * result count of a two-word search of those terms, before the earlier tiers are taken out
 * (search/stored-pair-total.ts). One bitmap of the documents at a time: memory is the matrix and
 * `documents / 8` bytes.
 */
export function countPairs(
  index: SearchIndex,
  scan: number,
  { maxTerms = PAIR_TERMS_MAX, minPostings = 0 }: { maxTerms?: number; minPostings?: number } = {},
): PairCounts {
  const offsets = index.u32('postings.offsets');
  const postings = index.u32('postings');
  const dense = index.bitmapTerms().filter((t) => offsets[t + 1] - offsets[t] >= minPostings);
  const terms = Uint32Array.from(dense.slice(0, maxTerms)).sort();
  const n = terms.length;
  const counts = new Uint32Array(n * n).fill(PAIR_NOT_COUNTED);
  const size = (term: number) => offsets[term + 1] - offsets[term];
  const map = new Uint32Array((index.documents + 31) >>> 5);
  for (let j = 0; j < n; j++) {
    const other = terms[j];
    map.fill(0);
    for (let k = offsets[other]; k < offsets[other + 1]; k++) map[postings[k] >>> 5] |= 1 << (postings[k] & 31);
    for (let i = 0; i < n; i++) {
      const driver = terms[i];
      if (size(driver) > size(other)) continue;
      const end = Math.min(offsets[driver + 1], offsets[driver] + scan);
      let count = 0;
      for (let k = offsets[driver]; k < end; k++) count += (map[postings[k] >>> 5] >>> (postings[k] & 31)) & 1;
      counts[i * n + j] = count;
    }
  }
  return { terms, counts, scan };
}
