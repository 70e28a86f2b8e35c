import type { FirstPage } from '../index-format/search/first-pages.js';
import { type HiddenDocs, KeptPage } from '../index-format/search/hidden-docs.js';
import type { SearchIndex, TermRange } from '../index-format/search/search-index.js';
import { exactWords } from './query-words.js';
import { FUZZY_BELOW } from './search-constants.js';

/**
 * A first page the compile stored, served under a deletes set (HiddenDocs): the compile ranked
 * and counted it with the hidden documents, so it answers only when leaving them out changes
 * nothing but what is left out. That holds for a one-word search whose page keeps `need` hits
 * once the hidden are left out (or held every result), whose name-prefix tier is ranked the same
 * way, and whose total is known without them: the window, when a term of the word still has
 * `window` holders in service (the engine's saturated case, where the scan stops at the page);
 * below the window, the stored total less the hidden documents holding a term of the word.
 * Anything else (null) is ranked by the tiers, leaving the hidden out. The page read holds the
 * stored hits in service and answers for as many of them, or for any page size when the stored
 * page held every result. So the common words, whose pages the compile stored because ranking
 * them costs, stay one lookup under a deletes set (the caller keeps what this reads).
 */
export function storedPageLive(
  index: SearchIndex,
  hidden: HiddenDocs,
  page: FirstPage,
  normal: string,
  window: number,
  namePrefixScan: number,
): KeptPage | null {
  if (normal.includes(' ')) return null;
  const exact = exactWords(index, [normal]);
  if (!exact) return null;
  const total = page.total < window ? totalInService(hidden, exact[0].ranges, page.total) : saturatedTotal(index, hidden, exact[0].ranges, window);
  if (total < 0) return null;
  // Tier 1 is ranked when at most namePrefixScan names start with the query: the same either way?
  const byName = index.namePrefixRange(normal);
  const exactEnd = index.nameEqualEnd(byName, normal);
  const prefixCount = byName.to - exactEnd;
  if (prefixCount > namePrefixScan && prefixCount - hidden.inNameRange(exactEnd, byName.to) <= namePrefixScan) return null;
  const hits: { rank: number; tier: number }[] = [];
  for (let i = 0; i < page.count; i++) if (!hidden.has(page.rank(i))) hits.push({ rank: page.rank(i), tier: page.tier(i) });
  // A page short of hidden hits is right for as many as it kept, unless it held every result.
  return KeptPage.of(hits, total, page.count < page.total ? hits.length : Number.POSITIVE_INFINITY);
}

/** The window, when a term of the word has that many holders in service (the engine's saturated case); else -1. */
function saturatedTotal(index: SearchIndex, hidden: HiddenDocs, ranges: readonly TermRange[], window: number): number {
  const offsets = index.u32('postings.offsets');
  for (const r of ranges) for (let t = r.from; t < r.to; t++) if (offsets[t + 1] - offsets[t] - hidden.holding(t) >= window) return window;
  return -1;
}

/**
 * A total below the window counted every document holding a term of the word (fewer than the
 * window hold one, so the scan saw them all): less the hidden ones among them. -1 when the
 * typo-tolerant tiers would run on either side (their results hold no term of the word).
 */
function totalInService(hidden: HiddenDocs, ranges: readonly TermRange[], stored: number): number {
  if (stored < FUZZY_BELOW) return -1;
  const gone = new Set<number>();
  for (const r of ranges) for (let t = r.from; t < r.to; t++) for (const rank of hidden.holdersOf(t)) gone.add(rank);
  const total = stored - gone.size;
  return total < FUZZY_BELOW ? -1 : total;
}
