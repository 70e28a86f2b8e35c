import type { SearchIndex, TermRange } from '../index-format/search-index.js';
import { RankMerge } from './rank-merge.js';

/** The terms one query word accepts: one or more term id ranges. */
export interface QueryWord {
  readonly ranges: readonly TermRange[];
}

/** What a scan counts and keeps: see Ranking in search-engine.ts. */
export interface Collector {
  /** Whether the total is at its cap (nothing more need be counted). */
  readonly full: boolean;
  /** Whether the page is complete (no more hits need be kept). */
  readonly pageFull: boolean;
  add(rank: number, tier: number): void;
}

/**
 * The documents holding every word (in the name or the artists), in popularity order: the
 * candidates of the rarest word (its postings, or the union of a range's), at most `scan` of
 * them, each checked against the other words, most selective first: a bit test where the word
 * has a bitmap (SearchIndex.bitmap), else a galloping seek in its postings. `skip` says which candidates an earlier tier already counted. Stops when the
 * collector is full, or, when `saturated` (the total is known to reach its cap), as soon as the
 * page is.
 */
export function scanAllWords(index: SearchIndex, words: readonly QueryWord[], tier: number, scan: number, skip: (rank: number) => boolean, out: Collector, saturated: boolean): void {
  const offsets = index.u32('postings.offsets');
  const postings = index.u32('postings');
  const sized = words.map((w) => ({ word: w, postings: w.ranges.reduce((n, r) => n + offsets[r.to] - offsets[r.from], 0) }));
  sized.sort((a, b) => a.postings - b.postings);
  const [driver, ...others] = sized;
  if (driver.postings === 0) return;

  const bitmaps: Uint32Array[] = [];
  const cursors: RankMerge[] = [];
  for (const { word } of others) {
    const single = word.ranges.length === 1 && word.ranges[0].to - word.ranges[0].from === 1;
    const map = single ? index.bitmap(word.ranges[0].from) : null;
    if (map) bitmaps.push(map);
    else cursors.push(new RankMerge(offsets, postings, word.ranges));
  }
  // Candidates come in ascending rank, so each cursor only moves forward.
  const accept = (r: number): boolean => {
    for (let b = 0; b < bitmaps.length; b++) if ((bitmaps[b][r >>> 5] & (1 << (r & 31))) === 0) return false;
    for (let c = 0; c < cursors.length; c++) if (cursors[c].seek(r) !== r) return false;
    return !skip(r);
  };

  const ranges = driver.word.ranges;
  if (ranges.length === 1 && ranges[0].to - ranges[0].from === 1) {
    // One term: its postings are already in popularity order.
    const end = Math.min(offsets[ranges[0].to], offsets[ranges[0].from] + scan);
    for (let k = offsets[ranges[0].from]; k < end; k++) {
      const r = postings[k];
      if (accept(r)) {
        out.add(r, tier);
        if (out.full || (saturated && out.pageFull)) return;
      }
    }
    return;
  }
  const merge = new RankMerge(offsets, postings, ranges);
  for (let seen = 0; seen < scan; seen++) {
    const r = merge.next();
    if (r < 0) return;
    if (accept(r)) {
      out.add(r, tier);
      if (out.full || (saturated && out.pageFull)) return;
    }
  }
}

