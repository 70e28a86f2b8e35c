/**
 * Text normalisation shared by the compiler (indexing) and the server (queries), so the two can
 * never disagree: NFKD, accents and case folded, punctuation to spaces, and every CJK
 * character its own token (those scripts do not put spaces between words).
 *
 * Marks are of two kinds. Those a reader may leave out are folded away like accents: the
 * combining diacritics of Latin, Greek and Cyrillic, Hebrew points and cantillation, Arabic
 * vowel signs (harakat, shadda, sukun, hamza above and below, superscript alef) and Quranic
 * annotation, variation selectors. The others spell their words (Devanagari, Tamil and the other
 * Indic scripts' vowel signs and viramas, Thai vowels and tone marks) and stay in them: "नमस्ते"
 * is one word, not three pieces. A mark with no letter before it (one left after a CJK split,
 * such as a lone dakuten) is dropped.
 */
const FOLDED_MARKS =
  /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed\ufe00-\ufe0f]|\udb40[\udd00-\uddef]/g;
const CJK = /([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff])/g;
/** Runs of what is neither letter, digit nor mark, with the marks that follow them (they follow no letter). */
const NOT_WORD = /(?:[^\p{L}\p{N}\p{M}]+\p{M}*)+/gu;
/** Marks at the very start: they follow no letter either. */
const LEADING_MARKS = /^\p{M}+/u;

/** Bumped whenever searchText changes: a snapshot built with another version is refused. */
export const SEARCH_TEXT_VERSION = 3;

const NOT_ASCII = /[^\u0000-\u007f]/;
const NOT_ASCII_WORD = /[^a-z0-9]+/g;

/** The last text normalised and its result: a search of several groups normalises its term once per group. */
let lastText = '';
let lastNormal = '';

export function searchText(text: string): string {
  if (text === lastText) return lastNormal;
  // ASCII text has nothing to decompose, fold or split apart: the same result, several passes fewer.
  const normal = NOT_ASCII.test(text) ? searchTextOfAnyScript(text) : text.toLowerCase().replace(NOT_ASCII_WORD, ' ').trim();
  lastText = text;
  lastNormal = normal;
  return normal;
}

/** searchText without the ASCII shortcut (exported for the test that holds the two together). */
export function searchTextOfAnyScript(text: string): string {
  return text
    .normalize('NFKD')
    .replace(FOLDED_MARKS, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/đ/g, 'd')
    .replace(/ø/g, 'o')
    .replace(/ł/g, 'l')
    .replace(/æ/g, 'ae')
    .replace(/œ/g, 'oe')
    .replace(CJK, ' $1 ')
    .replace(NOT_WORD, ' ')
    .replace(LEADING_MARKS, '')
    .trim();
}

/** What the manifest records about the search index, so a reader can refuse a mismatch. */
export const SEARCH_INDEX_INFO = { format: 'omm-search', version: 2, textVersion: SEARCH_TEXT_VERSION } as const;
