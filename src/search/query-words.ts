import type { SearchIndex, TermRange } from '../index-format/search/search-index.js';
import type { QueryWord } from './all-words.js';
import { withinOneEdit } from './one-edit.js';
import { prefixTypoRanges } from './prefix-typos.js';

/**
 * A query's words as the search engine's tiers look them up: as typed (the last one as a
 * prefix), or with typos forgiven (terms one edit away, and for a long last word the terms
 * starting one edit away), and the word sets those corrections name.
 */

/** Word sets the typo-tolerant word-set tier looks up at most (one per choice of corrections). */
const FUZZY_WORD_SETS = 64;
/** Words shorter than this (in characters) are not corrected; longer than the second, neither. */
export const TYPO_MIN = 4;
export const TYPO_MAX = 32;
export const TYPO_PREFIX_MIN = 7;

/**
 * The word sets (sorted term ids) the query names with typos forgiven: each word as typed when
 * it is a term (`ids`: each word's term id or -1), else each term one edit away (4 to 32
 * characters); none when every word is a
 * term as typed (tier 2 looked that set up) or some word is neither. At most FUZZY_WORD_SETS.
 */
export function correctedWordSets(index: SearchIndex, words: string[], ids: readonly number[]): Uint32Array[] {
  const sets = correctionSets(
    words,
    (w) => (ids[w] >= 0 ? ids[w] : null),
    (word) => oneEditTerms(index, word),
  );
  const out = new Map<string, Uint32Array>();
  for (const set of sets) {
    const sorted = Uint32Array.from(new Set(set)).sort();
    out.set(sorted.join(','), sorted);
  }
  return [...out.values()];
}

/**
 * The choices of correctedWordSets, over terms of any kind (ids, or the strings of several
 * segments' terms, segmented-words.ts): each word as typed when `typed` says it is a term, else
 * each of its `near` terms (4 to 32 characters); every combination, at most FUZZY_WORD_SETS, in
 * the order of the choices. None when no word needed a correction, or one has none.
 */
export function correctionSets<T>(words: readonly string[], typed: (w: number) => T | null, near: (word: string) => T[]): T[][] {
  const choices: T[][] = [];
  let corrected = false;
  for (let w = 0; w < words.length; w++) {
    const asTyped = typed(w);
    if (asTyped !== null) {
      choices.push([asTyped]);
      continue;
    }
    const length = [...words[w]].length;
    if (length < TYPO_MIN || length > TYPO_MAX) return [];
    const options = near(words[w]);
    if (options.length === 0) return [];
    corrected = true;
    choices.push(options);
  }
  if (!corrected) return [];
  let sets: T[][] = [[]];
  for (const options of choices) {
    sets = sets.flatMap((set) => options.map((term) => [...set, term]));
    if (sets.length > FUZZY_WORD_SETS) sets = sets.slice(0, FUZZY_WORD_SETS);
  }
  return sets;
}

/** Terms one edit (Damerau: adjacent swaps included) from `word`, ascending. */
export function oneEditTerms(index: SearchIndex, word: string): number[] {
  const out: number[] = [];
  for (const id of index.typoCandidates(word)) if (withinOneEdit(word, index.term(id))) out.push(id);
  return out.sort((a, b) => a - b);
}

/** The words as typed (the last one as a prefix), or null when one matches no term. */
export function exactWords(index: SearchIndex, words: string[]): QueryWord[] | null {
  const out: QueryWord[] = [];
  for (let w = 0; w < words.length; w++) {
    const range = asTyped(index, words[w], w === words.length - 1);
    if (!range) return null;
    out.push({ ranges: [range] });
  }
  return out;
}

/** A word as typed: its term, or for the last word the terms it begins; null when none. */
export function asTyped(index: SearchIndex, word: string, last: boolean): TermRange | null {
  if (last) {
    const range = index.prefixRange(word);
    return range.to > range.from ? range : null;
  }
  const id = index.termId(word);
  return id >= 0 ? { from: id, to: id + 1 } : null;
}

/**
 * The words with typos forgiven: a word found as typed (the last: that some term starts with)
 * stays as it is; one of 4 to 32 characters that is not also accepts the terms one edit away
 * (the last word, from 7 characters, also the terms starting one edit away from it). Null when
 * no word needed that (the exact tiers already said everything) or one still matches nothing.
 */
export function correctedWords(index: SearchIndex, words: string[]): QueryWord[] | null {
  const out: QueryWord[] = [];
  let corrected = false;
  for (let w = 0; w < words.length; w++) {
    const word = words[w];
    const last = w === words.length - 1;
    const typed = asTyped(index, word, last);
    if (typed) {
      out.push({ ranges: [typed] });
      continue;
    }
    const length = [...word].length;
    if (length < TYPO_MIN || length > TYPO_MAX) return null;
    corrected = true;
    const ranges: TermRange[] = oneEditTerms(index, word).map((id) => ({ from: id, to: id + 1 }));
    if (last && length >= TYPO_PREFIX_MIN) ranges.push(...prefixTypoRanges(index, word));
    if (ranges.length === 0) return null;
    out.push({ ranges });
  }
  return corrected ? out : null;
}
