import type { FirstPage } from '../index-format/search/first-pages.js';
import type { HiddenDocs } from '../index-format/search/hidden-docs.js';
import type { SearchIndex } from '../index-format/search/search-index.js';
import { exactWords } from './query-words.js';

/**
 * A first page the compile stored, served under a deletes set (HiddenDocs): the compile ranked
 * and counted it with the hidden documents, so it answers only when leaving them out cannot
 * change it. That holds for a one-word search whose total reached the window and still does
 * without them (a term of the word has `window` holders in service: the engine's saturated
 * case, where the total is the window and the scan stops at the page), whose name-prefix tier is
 * ranked the same way, and whose page keeps `need` hits once the hidden are left out: those, in
 * the stored order, are the page. Anything else (null) is ranked by the tiers, leaving the
 * hidden out. So the common words, whose pages the compile stored because ranking them costs,
 * stay one lookup under a deletes set.
 */
export function storedPageLive(
  index: SearchIndex,
  hidden: HiddenDocs,
  page: FirstPage,
  normal: string,
  need: number,
  window: number,
  namePrefixScan: number,
): { hits: { rank: number; tier: number }[]; total: number } | null {
  if (page.total < window || normal.includes(' ')) return null;
  const exact = exactWords(index, [normal]);
  if (!exact) return null;
  const offsets = index.u32('postings.offsets');
  let saturated = false;
  for (const r of exact[0].ranges)
    for (let t = r.from; t < r.to && !saturated; t++) if (offsets[t + 1] - offsets[t] - hidden.holding(t) >= window) saturated = true;
  if (!saturated) return null;
  // Tier 1 is ranked when at most namePrefixScan names start with the query: the same either way?
  const byName = index.namePrefixRange(normal);
  const exactEnd = index.nameEqualEnd(byName, normal);
  const prefixCount = byName.to - exactEnd;
  if (prefixCount > namePrefixScan && prefixCount - hidden.inNameRange(exactEnd, byName.to) <= namePrefixScan) return null;
  const hits: { rank: number; tier: number }[] = [];
  for (let i = 0; i < page.count && hits.length < need; i++) if (!hidden.has(page.rank(i))) hits.push({ rank: page.rank(i), tier: page.tier(i) });
  return hits.length < need ? null : { hits, total: page.total };
}
