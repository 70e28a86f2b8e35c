import type { FirstPage } from '../index-format/search/first-pages.js';
import { type HiddenDocs, KeptPage } from '../index-format/search/hidden-docs.js';
import type { SearchIndex } from '../index-format/search/search-index.js';
import { searchText } from '../index-format/search/search-text.js';
import { scanAllWords } from './all-words.js';
import { Ranking, type SearchHit, type SearchOptions, type SearchResult } from './ranking.js';
import { correctedWords, correctedWordSets, exactWords } from './query-words.js';
import { RankMarks } from './rank-marks.js';
import { storedPage } from './stored-page-lookup.js';
import { storedPageLive } from './stored-page-live.js';
import { storedPairTotal } from './stored-pair-total.js';
import { addNameRanges, addNameRangesLive } from './name-ranges.js';
import { CANDIDATE_SCAN, FUZZY_BELOW, NAME_PREFIX_SCAN, SEARCH_ENGINE_VERSION, SEARCH_WINDOW, TIER } from './search-constants.js';

export { CANDIDATE_SCAN, FUZZY_BELOW, NAME_PREFIX_SCAN, SEARCH_ENGINE_VERSION, SEARCH_WINDOW, TIER } from './search-constants.js';
export type { SearchHit, SearchOptions, SearchResult } from './ranking.js';

/**
 * Ranks the documents of one index for a query, in tiers, each in popularity order and without
 * the documents of the tiers before it:
 * 0. the whole normalised name equals the query;
 * 1. the name starts with the query (skipped when more than NAME_PREFIX_SCAN names do);
 * 2. the query's words are exactly the name's words, or the name's and one credited artist's,
 *    or the name's and all its artists', in any order ("title artist");
 * 3. every word of the query is in the name or the artists, the last word possibly a prefix;
 * 4. as 2, with one typo allowed per word of 4+ characters;
 * 5. as 3, with one typo allowed per word of 4+ characters.
 * Tiers 4 and 5 run only when 0-3 found fewer than FUZZY_BELOW. Tiers 0 and 1 are ranges of
 * the name order, tiers 2 and 4 lookups of the word-set keys, tiers 3 and 5 a scan of the
 * rarest word's postings (CANDIDATE_SCAN). Only the hits a page needs are kept; the rest are
 * counted (up to the window), so the cost follows the page asked for while the total and the
 * order do not depend on it: pages of the same term agree. Two words that are each one of the
 * densest terms take tier 3's count from the compile (stored-pair-total.ts): the scan then
 * stops at the page.
 */
export function searchIndex(index: SearchIndex, term: string, options: SearchOptions = {}): SearchResult {
  const window = options.window ?? SEARCH_WINDOW;
  const need = Math.min(options.need ?? window, window);
  const scan = Math.max(options.scan ?? CANDIDATE_SCAN, window);
  const normal = searchText(term);
  if (normal.length === 0 || index.documents === 0) return { hits: [], total: 0 };
  const count = Math.min(window, Math.max(options.countTo ?? window, need, FUZZY_BELOW));
  const stored = storedFirstPage(index, normal, need, window, scan, options);
  if (stored) return { hits: stored.hits, total: Math.min(stored.total, count) };
  const earlier = RankMarks.of(index);
  try {
    return rankTiers(index, normal, need, count, scan, options, earlier);
  } finally {
    earlier.clear();
  }
}

/**
 * searchIndex's tiers, counting up to `window` (the caller's window or less); `earlier` (empty)
 * marks the results so far, for the later tiers to skip.
 */
function rankTiers(index: SearchIndex, normal: string, need: number, window: number, scan: number, options: SearchOptions, earlier: RankMarks): SearchResult {
  const words = [...new Set(normal.split(' '))];
  const hidden = index.hidden?.bits ?? null;
  const out = new Ranking(need, window, hidden);

  // Tiers 0 and 1: ranges of the name order.
  const order = index.u32('names.order');
  const byName = index.namePrefixRange(normal);
  const exactEnd = index.nameEqualEnd(byName, normal);
  const ranked = index.hidden
    ? addNameRangesLive(out, order, byName.from, exactEnd, byName.to, index.hidden)
    : addNameRanges(out, order, byName.from, exactEnd, byName.to);
  if (out.full) return out;
  // What the later tiers skip: the results so far (fewer than the window).
  for (let k = byName.from; k < (ranked ? byName.to : exactEnd); k++) earlier.add(order[k]);

  // Tier 2: the word-set keys.
  const ids = words.map((w) => index.termId(w));
  if (ids.every((id) => id >= 0)) {
    for (const r of index.wordSetRanks(Uint32Array.from(ids).sort(), scan)) {
      if (out.full) break;
      if (!earlier.add(r)) continue;
      out.add(r, TIER.wordSet);
    }
  }
  if (out.full) return out;
  const skip = (r: number) => earlier.has(r);
  const makes = options.makesBitmaps !== false;

  // Tier 3: every word.
  const scans = options.scans !== false;
  const exact = scans ? exactWords(index, words) : null;
  if (exact) {
    const offsets = index.u32('postings.offsets');
    // One word: every candidate matches, so a term held by `window` documents fills the window.
    // (Under a deletes set, `window` documents in service.)
    let saturated = false;
    if (exact.length === 1 && scan >= window)
      for (const r of exact[0].ranges)
        for (let t = r.from; t < r.to; t++) if (offsets[t + 1] - offsets[t] - (index.hidden?.holding(t) ?? 0) >= window) saturated = true;
    const stored = index.firstPages?.meta.engine === SEARCH_ENGINE_VERSION ? storedPairTotal(index, exact, scan, earlier, makes) : -1;
    if (stored >= 0) {
      // The compile counted this pair: rank the page only, then the total is known.
      const before = out.total;
      out.pageCount = FUZZY_BELOW;
      scanAllWords(index, exact, TIER.allWords, scan, skip, out, true, makes);
      out.pageCount = 0;
      out.total = Math.min(window, before + stored);
    } else {
      scanAllWords(index, exact, TIER.allWords, scan, skip, out, saturated, makes);
      if (saturated) out.total = window;
    }
  }

  // Tiers 4 and 5: one typo per word.
  if (out.total < FUZZY_BELOW && options.fuzzy !== false) {
    for (const r of out.early) earlier.add(r);
    const found = correctedWordSets(index, words, ids).flatMap((set) => index.wordSetRanks(set, scan));
    for (const r of found.sort((a, b) => a - b)) if (!out.full && earlier.add(r)) out.add(r, TIER.fuzzyWordSet);
    const fuzzy = scans && !out.full ? correctedWords(index, words) : null;
    if (fuzzy) scanAllWords(index, fuzzy, TIER.fuzzy, scan, skip, out, false, makes);
  }
  return out;
}

/**
 * The compile's answer for a query of one or two terms or a phrase (first-pages.ts, phrase-pages.ts), when it kept one and
 * the request is what it ranked: the first `need` hits with the default window, scan and tiers.
 */
function storedFirstPage(index: SearchIndex, normal: string, need: number, window: number, scan: number, options: SearchOptions): SearchResult | null {
  const pages = index.firstPages;
  if (!pages || pages.meta.engine !== SEARCH_ENGINE_VERSION || need > pages.meta.limit || window !== pages.meta.window) return null;
  if (scan !== Math.max(CANDIDATE_SCAN, window) || options.fuzzy === false || options.scans === false) return null;
  const page = storedPage(index, pages, normal, need);
  if (!page) return null;
  if (index.hidden) return livePage(index, index.hidden, page, normal, need, window, scan, options);
  const hits: SearchHit[] = [];
  for (let i = 0; i < Math.min(need, page.count); i++) hits.push({ rank: page.rank(i), tier: page.tier(i) });
  return { hits, total: page.total };
}

/**
 * A query the compile stored a first page of, under a deletes set: the page as it reads without
 * the hidden, corrected in place where that is exact (stored-page-live.ts), else ranked by the
 * tiers to the stored page's length and the full window; either way once, and kept with the set
 * (HiddenDocs.keptPage), so the compile's stored answers stay one lookup, each read again at
 * most once per snapshot, as a takedown that rewrote them would have.
 */
function livePage(
  index: SearchIndex,
  hidden: HiddenDocs,
  page: FirstPage,
  normal: string,
  need: number,
  window: number,
  scan: number,
  options: SearchOptions,
): SearchResult {
  const kept = hidden.keptPage(normal);
  const keptHits = kept?.firstHits(need);
  if (keptHits) return { hits: keptHits, total: kept!.total };
  const inPlace = kept ? null : storedPageLive(index, hidden, page, normal, window, NAME_PREFIX_SCAN);
  const read = inPlace?.firstHits(need) ? inPlace : rankedPage(index, normal, window, scan, options);
  hidden.keepPage(normal, read);
  return { hits: read.firstHits(need) ?? [], total: read.total };
}

/**
 * A stored page's query ranked by the tiers, without the hidden, to the stored page's length
 * (storedFirstPage's bounds): one-time work, so it makes no bitmap (the searches served decide which terms get one).
 */
function rankedPage(index: SearchIndex, normal: string, window: number, scan: number, options: SearchOptions): KeptPage {
  const limit = index.firstPages?.meta.limit ?? 0;
  const earlier = RankMarks.of(index);
  try {
    const ranked = rankTiers(index, normal, limit, window, scan, { ...options, makesBitmaps: false }, earlier);
    return KeptPage.of(ranked.hits, ranked.total, limit);
  } finally {
    earlier.clear();
  }
}
