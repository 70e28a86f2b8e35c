import type { SearchIndex, TermRange } from '../../index-format/search-index.js';
import { searchText } from '../../index-format/search-text.js';
import { IntSet } from './int-set.js';
import { RankMerge } from './rank-merge.js';
import { typoVariants } from './typo-variants.js';

/** How well a document matched; smaller is better. */
export const TIER = { exactName: 0, namePrefix: 1, allWordsName: 2, allWords: 3, fuzzy: 4 } as const;

export interface SearchHit {
  /** Popularity rank within its type (0 = most popular). */
  readonly rank: number;
  readonly tier: number;
}

export interface SearchResult {
  /** Best first: by tier, then popularity; at most SEARCH_WINDOW. */
  readonly hits: SearchHit[];
  /** The number of hits: every page of the same term agrees on it. */
  readonly total: number;
}

/** Results of one type are ranked up to this many: offset + limit may not pass it. */
export const SEARCH_WINDOW = 1000;
/** A name-prefix range longer than this is not ranked on its own (its names are still found by their words). */
const NAME_PREFIX_SCAN = 5_000;
/**
 * Candidates a word pass examines, most popular first, before it stops. This bounds the cost of
 * a query of common words; such a query returns the matches among its most popular candidates.
 */
export const CANDIDATE_SCAN = 20_000;
/** The typo-tolerant pass runs when the exact passes found fewer results than this. */
export const FUZZY_BELOW = 10;
/** Words shorter than this (in characters) are not corrected; longer than the second, neither. */
const TYPO_MIN = 4;
const TYPO_MAX = 32;
const TYPO_PREFIX_MIN = 7;

/** The terms one query word accepts. */
type WordTerms = TermRange[];

/**
 * Ranks the documents of one index for a query:
 * 1. the whole normalised name equals the query;
 * 2. the name starts with the query;
 * 3. every word of the query is in the name or the artists (the last word may be a prefix), and
 *    the query covers every word of the name;
 * 4. the same, with name words left over;
 * 5. the same with one typo allowed per word of 4+ characters (run only when 1-4 found fewer
 *    than FUZZY_BELOW).
 * Within a tier the more popular comes first. Everything reads precomputed sections: ranges by
 * binary search, candidates from postings in popularity order, checks on the forward index.
 * The result does not depend on the page asked for, so totals agree across pages. A smaller
 * `window` (the matcher's candidates) stops each pass as soon as that many are found.
 */
export function searchIndex(index: SearchIndex, term: string, window = SEARCH_WINDOW): SearchResult {
  const normal = searchText(term);
  if (normal.length === 0 || index.documents === 0) return { hits: [], total: 0 };
  const words = [...new Set(normal.split(' '))];
  const seen = new IntSet();
  const hits: SearchHit[] = [];
  const add = (rank: number, tier: number) => {
    if (hits.length < window && seen.add(rank)) hits.push({ rank, tier });
  };

  const order = index.u32('names.order');
  const byName = index.namePrefixRange(normal);
  const exactEnd = index.nameEqualEnd(byName, normal);
  for (let k = byName.from; k < exactEnd && hits.length < window; k++) add(order[k], TIER.exactName);
  if (byName.to - exactEnd <= NAME_PREFIX_SCAN && hits.length < window) {
    const ranks = order.slice(exactEnd, byName.to).sort();
    for (const r of ranks.subarray(0, window)) add(r, TIER.namePrefix);
  }

  const exactWords = wordTerms(index, words, false);
  if (exactWords && hits.length < window) {
    const pass = allWords(index, exactWords, seen, window);
    for (const r of pass.covered) add(r, TIER.allWordsName);
    for (const r of pass.other) add(r, TIER.allWords);
  }
  if (hits.length < FUZZY_BELOW) {
    const fuzzyWords = wordTerms(index, words, true);
    if (fuzzyWords) {
      const pass = allWords(index, fuzzyWords, seen, window);
      for (const r of pass.covered) add(r, TIER.fuzzy);
      for (const r of pass.other) add(r, TIER.fuzzy);
    }
  }
  return { hits, total: hits.length };
}

/**
 * Term ranges per word, or null when some word matches no term at all. With `typos`, a word
 * that is not in the dictionary as typed (for the last word: that no term starts with) of 4 to
 * 32 characters also accepts the terms one edit away; null when no word needed that (the
 * exact pass already said everything).
 */
function wordTerms(index: SearchIndex, words: string[], typos: boolean): WordTerms[] | null {
  const out: WordTerms[] = [];
  let corrected = false;
  for (let w = 0; w < words.length; w++) {
    const word = words[w];
    const last = w === words.length - 1;
    const ranges: TermRange[] = [];
    if (last) pushNonEmpty(ranges, index.prefixRange(word));
    else {
      const id = index.termId(word);
      if (id >= 0) ranges.push({ from: id, to: id + 1 });
    }
    const length = [...word].length;
    if (typos && ranges.length === 0 && length >= TYPO_MIN && length <= TYPO_MAX) {
      corrected = true;
      for (const variant of typoVariants(word, index.alphabet)) {
        if (last && length >= TYPO_PREFIX_MIN) pushNonEmpty(ranges, index.prefixRange(variant));
        else {
          const id = index.termId(variant);
          if (id >= 0) ranges.push({ from: id, to: id + 1 });
        }
      }
    }
    if (ranges.length === 0) return null;
    out.push(ranges);
  }
  return typos && !corrected ? null : out;
}

function pushNonEmpty(ranges: TermRange[], range: TermRange): void {
  if (range.to > range.from) ranges.push(range);
}

/** Whether term `t` is in one of the flattened [from, to) pairs. */
function inRanges(pairs: Int32Array, t: number): boolean {
  for (let i = 0; i < pairs.length; i += 2) if (t >= pairs[i] && t < pairs[i + 1]) return true;
  return false;
}

/**
 * Documents holding every word, in popularity order, split into those whose name words the
 * query covers and the rest: a leapfrog join over each word's postings (a union of lists for a
 * prefix or a corrected word), so the walk reads postings sequentially and skips runs by
 * galloping; the forward index is read for matches only.
 */
function allWords(index: SearchIndex, words: WordTerms[], skip: IntSet, window: number): { covered: number[]; other: number[] } {
  const offsets = index.u32('postings.offsets');
  const postings = index.u32('postings');
  const merges = words.map((ranges) => new RankMerge(offsets, postings, ranges));
  const allPairs = Int32Array.from(words.flatMap((ranges) => ranges.flatMap((r) => [r.from, r.to])));
  const nameOffsets = index.u32('docname.offsets');
  const nameTerms = index.u32('docname.targets');
  const covered: number[] = [];
  const other: number[] = [];
  const room = window - skip.size;
  let x = 0;
  for (let steps = 0; steps < CANDIDATE_SCAN && covered.length + other.length < room; steps++) {
    let agreed = true;
    for (const merge of merges) {
      const v = merge.seek(x);
      if (v < 0) return { covered, other };
      if (v > x) {
        x = v;
        agreed = false;
        break;
      }
    }
    if (!agreed) continue;
    if (!skip.has(x)) {
      let all = true;
      for (let k = nameOffsets[x]; k < nameOffsets[x + 1] && all; k++) all = inRanges(allPairs, nameTerms[k]);
      (all ? covered : other).push(x);
    }
    x++;
  }
  return { covered, other };
}
