import type { HiddenDocs } from '../index-format/search/hidden-docs.js';
import type { SearchIndex } from '../index-format/search/search-index.js';
import { hashRun } from '../index-format/search/search-keys.js';
import type { QueryWord } from './all-words.js';
import type { RankMarks } from './rank-marks.js';

/**
 * The all-words tier's result count for two words that are each one term, taken from the
 * compile's pair count (index-format/search/first-pages.ts) instead of a scan of up to `scan`
 * candidates: the stored count of the driver's first `scan` documents holding the other word,
 * less those `earlier` (the results of the tiers before) already counted. -1 when the compile did
 * not count this pair or counted it over another scan. The driver is chosen as scanAllWords
 * chooses it: the word with fewer documents, the first word on a tie.
 */
export function storedPairTotal(index: SearchIndex, words: readonly QueryWord[], scan: number, earlier: RankMarks, makeBitmaps = true): number {
  const pages = index.firstPages;
  if (!pages || pages.meta.pairScan !== scan || words.length !== 2) return -1;
  const terms = words.map(singleTerm);
  if (terms[0] < 0 || terms[1] < 0) return -1;
  const offsets = index.u32('postings.offsets');
  const size = (term: number) => offsets[term + 1] - offsets[term];
  const [driver, other] = size(terms[0]) <= size(terms[1]) ? terms : [terms[1], terms[0]];
  const stored = pages.pairCount(driver, other);
  if (stored < 0) return -1;
  const postings = index.u32('postings');
  const inOther = holder(index, other, makeBitmaps);
  const { count, end } = index.hidden
    ? liveWindow(index.hidden, postings, offsets[driver], offsets[driver + 1], scan, stored, inOther)
    : { count: stored, end: Math.min(offsets[driver + 1], offsets[driver] + scan) };
  const last = postings[end - 1];
  const inDriver = holder(index, driver, makeBitmaps);
  let counted = 0;
  earlier.forEach((rank) => {
    if (rank <= last && !index.hidden?.has(rank) && inDriver(rank) && inOther(rank)) counted++;
  });
  return count - counted;
}

/**
 * The pair count over the driver's first `scan` documents in service, from the compile's count
 * over its first `scan` documents (postings[from, from + scan)): less the hidden ones there that
 * hold the other word, plus those of the documents after that window, as many as it held
 * hidden ones, that do (skipping hidden ones again). Returns the count and where the window of
 * documents in service ends.
 */
function liveWindow(
  hidden: HiddenDocs,
  postings: Uint32Array,
  from: number,
  to: number,
  scan: number,
  stored: number,
  inOther: (rank: number) => boolean,
): { count: number; end: number } {
  let count = stored;
  let end = Math.min(to, from + scan);
  let owed = 0;
  for (let k = from; k < end; k++) {
    if (!hidden.has(postings[k])) continue;
    owed++;
    if (inOther(postings[k])) count--;
  }
  for (; owed > 0 && end < to; end++) {
    const r = postings[end];
    if (hidden.has(r)) continue;
    owed--;
    if (inOther(r)) count++;
  }
  return { count, end };
}

function singleTerm(word: QueryWord): number {
  return word.ranges.length === 1 && word.ranges[0].to - word.ranges[0].from === 1 ? word.ranges[0].from : -1;
}

/** Whether a document (by rank) holds `term`: a bit test when the term has a bitmap, else a binary search of its postings. */
function holder(index: SearchIndex, term: number, makeBitmap: boolean): (rank: number) => boolean {
  const map = index.bitmap(term, makeBitmap);
  if (map) return (rank) => (map[rank >>> 5] & (1 << (rank & 31))) !== 0;
  const offsets = index.u32('postings.offsets');
  const list = index.u32('postings').subarray(offsets[term], offsets[term + 1]);
  return (rank) => {
    const run = hashRun(list, rank); // postings are ascending ranks
    return run.to > run.from;
  };
}
