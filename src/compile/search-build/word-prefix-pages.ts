import type { FirstPagesWriter } from '../../index-format/search/first-pages-writer.js';
import type { SearchIndex } from '../../index-format/search/search-index.js';
import { searchText } from '../../index-format/search/search-text.js';
import { FUZZY_BELOW, searchIndex } from '../../search/search-engine.js';

/**
 * Hits kept per word-and-prefix page: the explorer's groups (5) and `top` (10) are answered
 * whole; a longer page (interface 1's default 25) is ranked live.
 */
export const WORD_PREFIX_PAGE_LIMIT = 10;

/**
 * Words and prefix ranges paired at most per index, the most held of each: 512 x 512 pairs,
 * 2^18 pages of up to 10 hits, at most 14 MiB (the generated catalog at 1M songs has 400 dense
 * song terms and 404 dense prefix ranges: 161,600 pages, 10 MiB).
 */
export const WORD_PREFIX_SIDE_MAX = 512;

/**
 * The first pages of someone typing a second word ("love ni", "love nig"): a term, then a prefix
 * that is no term, both held by `minPostings` documents or more (the searches whose all-words
 * tier scans up to CANDIDATE_SCAN candidates: the live cost of each keystroke). The prefixes are
 * those of the same dense terms, from one character to one short of the term, each range once
 * (a longer prefix starting the same terms has the same answer); of each side the
 * WORD_PREFIX_SIDE_MAX held by the most documents. Ranked by the search engine itself; stored
 * only when the exact tiers found FUZZY_BELOW results or more (then the typo-tolerant tiers,
 * which read the words beyond the term and the range, did not run). Returns how many it wrote.
 */
export function rankWordPrefixes(
  index: SearchIndex,
  writer: FirstPagesWriter,
  { limit = WORD_PREFIX_PAGE_LIMIT, minPostings, sideMax = WORD_PREFIX_SIDE_MAX }: { limit?: number; minPostings: number; sideMax?: number },
): number {
  const offsets = index.u32('postings.offsets');
  const held = (from: number, to: number) => offsets[to] - offsets[from];
  const dense: number[] = [];
  for (let id = 0; id < index.terms; id++) if (held(id, id + 1) >= minPostings) dense.push(id);
  const mostHeld = <T>(items: T[], count: (item: T) => number) => items.sort((a, b) => count(b) - count(a)).slice(0, sideMax);
  const ranges = mostHeld(densePrefixRanges(index, dense, minPostings, held), (r) => held(r.from, r.to));
  const words = mostHeld([...dense], (id) => held(id, id + 1)).sort((a, b) => a - b);
  let pages = 0;
  for (const word of words) {
    for (const range of ranges) {
      // The query the engine looks the page up by: the term, then the shortest prefix of the range.
      const query = `${index.term(word)} ${range.prefix}`;
      if (searchText(query) !== query) continue;
      const result = searchIndex(index, query, { need: limit });
      if (result.total < FUZZY_BELOW) continue;
      writer.addWordPrefix(word, range.from, range.to, result.total, result.hits);
      pages++;
    }
  }
  return pages;
}

/** The term ranges of the prefixes of `words` that are no term and whose terms `minPostings` documents hold, each once. */
function densePrefixRanges(
  index: SearchIndex,
  words: readonly number[],
  minPostings: number,
  held: (from: number, to: number) => number,
): { from: number; to: number; prefix: string }[] {
  const seen = new Map<string, { from: number; to: number; prefix: string }>();
  for (const id of words) {
    const chars = [...index.term(id)];
    let prefix = '';
    for (let n = 1; n < chars.length; n++) {
      prefix += chars[n - 1];
      if (index.termId(prefix) >= 0) continue;
      const range = index.prefixRange(prefix);
      if (held(range.from, range.to) < minPostings) break;
      const key = `${range.from},${range.to}`;
      if (!seen.has(key)) seen.set(key, { ...range, prefix });
    }
  }
  return [...seen.values()];
}
