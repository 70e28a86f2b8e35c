import type { FirstPagesWriter } from '../../index-format/search/first-pages-writer.js';
import type { SearchIndex } from '../../index-format/search/search-index.js';
import { FUZZY_BELOW, searchIndex } from '../../search/search-engine.js';

/**
 * Prefixes from this many characters get pages: the explorer searches from the first letter
 * typed, and a one-letter prefix is the costliest of all live, as it starts the most terms (the
 * explorer's four searches of "s" at 1M: 35 µs live, 8.5 µs with pages, warmed).
 */
export const PREFIX_MIN_CHARS = 1;

/**
 * A prefix starting this many terms gets a page however few documents hold them: its live
 * search merges that many postings lists, however short each is.
 */
export const PREFIX_TERMS_COSTLY = 64;

/**
 * The first pages of what someone typing sends: every prefix of a term, from PREFIX_MIN_CHARS
 * character(s) to one short of the term, that is no term itself and whose terms are held by
 * `minPostings` documents or more, or number PREFIX_TERMS_COSTLY or more (the searches whose
 * live cost grows with the catalog: their all-words tier merges the postings of every term the
 * prefix starts). Ranked by the search engine itself, as the one-word pages are; stored by the
 * prefix's term range, once per range (a longer prefix starting the same terms has the same
 * answer), and only when the exact tiers found FUZZY_BELOW results or more (then the
 * typo-tolerant tiers, the only ones that read the prefix beyond its range, did not run). Terms
 * come in order, so a prefix repeats only from one term to the next. Returns how many it wrote.
 */
export function rankPrefixes(index: SearchIndex, writer: FirstPagesWriter, { limit, minPostings }: { limit: number; minPostings: number }): number {
  const offsets = index.u32('postings.offsets');
  const lastAt: string[] = [];
  const stored = new Set<number>();
  let pages = 0;
  for (let id = 0; id < index.terms; id++) {
    const chars = [...index.term(id)];
    let prefix = chars.slice(0, PREFIX_MIN_CHARS - 1).join('');
    for (let n = PREFIX_MIN_CHARS; n < chars.length; n++) {
      prefix += chars[n - 1];
      if (lastAt[n] === prefix) continue;
      lastAt[n] = prefix;
      const range = index.prefixRange(prefix);
      // A longer prefix starts fewer terms: none of them is costly either.
      if (offsets[range.to] - offsets[range.from] < minPostings && range.to - range.from < PREFIX_TERMS_COSTLY) break;
      const key = range.from * index.terms + range.to;
      if (index.termId(prefix) >= 0 || stored.has(key)) continue;
      const result = searchIndex(index, prefix, { need: limit });
      if (result.total < FUZZY_BELOW) continue;
      stored.add(key);
      writer.addPrefix(range.from, range.to, result.total, result.hits);
      pages++;
    }
  }
  return pages;
}
