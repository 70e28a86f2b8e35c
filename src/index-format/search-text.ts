/**
 * Text normalisation shared by the compiler (indexing) and the server (queries), so the two can
 * never disagree: NFKD, accents and case folded, punctuation to spaces, and every CJK
 * character its own token (those scripts do not put spaces between words).
 */
const COMBINING = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
const CJK = /([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff])/g;
const NOT_WORD = /[^\p{L}\p{N}]+/gu;

export const SEARCH_TEXT_VERSION = 1;

export function searchText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(COMBINING, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/đ/g, 'd')
    .replace(/ø/g, 'o')
    .replace(/ł/g, 'l')
    .replace(CJK, ' $1 ')
    .replace(NOT_WORD, ' ')
    .trim();
}

/** FlexSearch options, stored in the manifest and used verbatim by the reader. */
export const SEARCH_INDEX_OPTIONS = {
  tokenize: 'forward',
  resolution: 9,
  encoder: 'Exact',
  textVersion: SEARCH_TEXT_VERSION,
} as const;
