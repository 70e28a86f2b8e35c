/**
 * Text normalisation shared by the compiler (indexing) and the server (queries), so the two can
 * never disagree: NFKD, accents and case folded, punctuation to spaces, and every CJK
 * character its own token (those scripts do not put spaces between words).
 */
const COMBINING = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
const CJK = /([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff])/g;
const NOT_WORD = /[^\p{L}\p{N}]+/gu;

/** Bumped whenever searchText changes: a snapshot built with another version is refused. */
export const SEARCH_TEXT_VERSION = 2;

const NOT_ASCII = /[^\u0000-\u007f]/;
const NOT_ASCII_WORD = /[^a-z0-9]+/g;

export function searchText(text: string): string {
  // ASCII text has nothing to decompose, fold or split apart: the same result, several passes fewer.
  if (!NOT_ASCII.test(text)) return text.toLowerCase().replace(NOT_ASCII_WORD, ' ').trim();
  return searchTextOfAnyScript(text);
}

/** searchText without the ASCII shortcut (exported for the test that holds the two together). */
export function searchTextOfAnyScript(text: string): string {
  return text
    .normalize('NFKD')
    .replace(COMBINING, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/đ/g, 'd')
    .replace(/ø/g, 'o')
    .replace(/ł/g, 'l')
    .replace(/æ/g, 'ae')
    .replace(/œ/g, 'oe')
    .replace(CJK, ' $1 ')
    .replace(NOT_WORD, ' ')
    .trim();
}

/** The tokens of a text: its normalised words (single characters for CJK). */
export function searchTokens(text: string): string[] {
  const normal = searchText(text);
  return normal.length === 0 ? [] : normal.split(' ');
}

/** What the manifest records about the search index, so a reader can refuse a mismatch. */
export const SEARCH_INDEX_INFO = { format: 'omm-search', version: 2, textVersion: SEARCH_TEXT_VERSION } as const;
