import type { FirstPage, FirstPages } from '../index-format/search/first-pages.js';
import { PHRASE_TERMS_MAX } from '../index-format/search/phrase-pages.js';
import type { SearchIndex } from '../index-format/search/search-index.js';

/**
 * The stored page of a query of one term, or of a prefix that is no term, or of two terms
 * (first-pages.ts's pairs), or of a term and a prefix that is no term (when `need` hits fit its
 * page), or of several that a name writes as one word (phrase-pages.ts), or null.
 */
export function storedPage(index: SearchIndex, pages: FirstPages, normal: string, need: number): FirstPage | null {
  const space = normal.indexOf(' ');
  if (space < 0) {
    const id = index.termId(normal);
    if (id >= 0) return pages.page(id);
    // A prefix that is no term (someone typing): its page, when the compile stored one, by its term range.
    const prefixes = pages.prefixes();
    if (!prefixes) return null;
    const range = index.prefixRange(normal);
    return range.to > range.from ? prefixes.page([range.from, range.to]) : null;
  }
  if (normal.indexOf(' ', space + 1) >= 0) return phrasePage(index, pages, normal);
  const first = index.termId(normal.slice(0, space));
  if (first < 0) return null;
  const second = index.termId(normal.slice(space + 1));
  if (second < 0) return wordPrefixPage(index, pages, first, normal.slice(space + 1), need);
  return pages.pairPage(first, second) ?? pages.phrases()?.page([first, second]) ?? null;
}

/** The stored page of the term `first` and the prefix `typed` that is no term, when `need` hits fit it, or null. */
function wordPrefixPage(index: SearchIndex, pages: FirstPages, first: number, typed: string, need: number): FirstPage | null {
  if (need > (pages.meta.wordPrefixLimit ?? 0)) return null;
  const wordPrefixes = pages.wordPrefixes();
  if (!wordPrefixes) return null;
  const range = index.prefixRange(typed);
  return range.to > range.from ? wordPrefixes.page([first, range.from, range.to]) : null;
}

/** The stored page of a phrase of three terms or more, or null. */
function phrasePage(index: SearchIndex, pages: FirstPages, normal: string): FirstPage | null {
  const phrases = pages.phrases();
  if (!phrases) return null;
  const words = normal.split(' ');
  if (words.length > PHRASE_TERMS_MAX) return null;
  const ids: number[] = [];
  for (const word of words) {
    const id = index.termId(word);
    if (id < 0) return null;
    ids.push(id);
  }
  return phrases.page(ids);
}
