import type { SearchIndex, TermRange } from '../index-format/search/search-index.js';
import type { QueryWord } from './all-words.js';
import type { SearchOptions } from './ranking.js';
import { prefixTypoRanges } from './prefix-typos.js';
import { asTyped, correctionSets, oneEditTerms, TYPO_MAX, TYPO_MIN, TYPO_PREFIX_MIN } from './query-words.js';

/**
 * A query's words decided over every segment of a segmented snapshot at once (query-words.ts
 * decides them over one index): whether a word is a term, which terms one edit away exist, and
 * so whether the typo tiers run, are properties of the whole catalog, so they are decided on the
 * union of the segments' dictionaries, counting only terms some document in service holds (a
 * segment's dictionary keeps the terms of its hidden documents). Each segment then looks up the
 * decided words in its own dictionary.
 */

/** One segment's index, and where its documents stand in the merged popularity order. */
export interface SearchPart {
  readonly index: SearchIndex;
  /** The merged popularity rank of the document of rank `rank` in this index. */
  global(rank: number): number;
}

/** A document found in one part: its merged popularity rank, its part, and its rank there. */
export interface Found {
  readonly global: number;
  readonly part: number;
  readonly rank: number;
}

/** Found documents in merged popularity order. */
export const byGlobal = (a: Found, b: Found) => a.global - b.global;

/**
 * Per part, its words as its index holds them (a word's ranges empty where the part holds none of
 * its terms: that part matches nothing, but its postings of the other words still count when the
 * rarest word over all parts is chosen).
 */
export type PartWords = QueryWord[][];

/** SearchOptions, and what a search over some of the segments is told of the whole catalog (segmented-merge.ts). */
export interface SegmentOptions extends SearchOptions {
  /** Whether the name-prefix range is ranked (decided over every segment). */
  readonly rankPrefixes?: boolean;
}

/** Postings of documents in service among the terms [from, to) of a part. */
export function livePostings(part: SearchPart, from: number, to: number): number {
  const offsets = part.index.u32('postings.offsets');
  const raw = offsets[to] - offsets[from];
  return raw === 0 || !part.index.hidden ? raw : raw - part.index.hidden.holdingIn(from, to);
}

/** The ranges some document in service holds. */
function liveRanges(part: SearchPart, ranges: readonly TermRange[]): TermRange[] {
  return ranges.filter((r) => livePostings(part, r.from, r.to) > 0);
}

/** A word as typed in one part, null when no document in service holds it there. */
function typedIn(part: SearchPart, word: string, last: boolean): TermRange | null {
  const range = asTyped(part.index, word, last);
  return range && livePostings(part, range.from, range.to) > 0 ? range : null;
}

/** exactWords over the union: per part its words, or null overall when a word matches nothing anywhere. */
export function unionExactWords(parts: readonly SearchPart[], words: readonly string[]): PartWords | null {
  const out: PartWords = parts.map(() => []);
  for (let w = 0; w < words.length; w++) {
    const last = w === words.length - 1;
    let any = false;
    parts.forEach((part, p) => {
      const range = typedIn(part, words[w], last);
      if (range) any = true;
      out[p].push({ ranges: range ? [range] : [] });
    });
    if (!any) return null;
  }
  return out;
}

/** Whether a word is a term some document in service holds, in any part. */
export function isUnionTerm(parts: readonly SearchPart[], word: string): boolean {
  return parts.some((part) => typedIn(part, word, false) !== null);
}

/** Terms one edit from `word` that some document in service holds, in any part: unique, in byte order (the term order). */
function unionNearTerms(parts: readonly SearchPart[], word: string): string[] {
  const terms = new Set<string>();
  for (const part of parts) for (const id of oneEditTerms(part.index, word)) if (livePostings(part, id, id + 1) > 0) terms.add(part.index.term(id));
  return [...terms].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/**
 * correctedWordSets over the union, as term strings: each word as typed when it is a term,
 * else each term one edit away; none when every word is a term or some word is neither. At
 * most FUZZY_WORD_SETS, each without repeats, none twice.
 */
export function unionCorrectedWordSets(parts: readonly SearchPart[], words: readonly string[]): string[][] {
  const sets = correctionSets(
    words,
    (w) => (isUnionTerm(parts, words[w]) ? words[w] : null),
    (word) => unionNearTerms(parts, word),
  );
  const out = new Map<string, string[]>();
  for (const set of sets) {
    const unique = [...new Set(set)];
    out.set([...unique].sort().join('\u0000'), unique);
  }
  return [...out.values()];
}

/** A word set's term ids in one part, ascending; null when a term is not there. */
export function setIn(part: SearchPart, set: readonly string[]): Uint32Array | null {
  const ids = set.map((term) => part.index.termId(term));
  return ids.every((id) => id >= 0) ? Uint32Array.from(ids).sort() : null;
}

/** correctedWords over the union: per part its words (typos forgiven), or null when no word needed it or one matches nothing anywhere. */
export function unionCorrectedWords(parts: readonly SearchPart[], words: readonly string[]): PartWords | null {
  const out: PartWords = parts.map(() => []);
  let corrected = false;
  for (let w = 0; w < words.length; w++) {
    const word = words[w];
    const last = w === words.length - 1;
    const typed = parts.map((part) => typedIn(part, word, last));
    let ranges: TermRange[][];
    if (typed.some((r) => r !== null)) ranges = typed.map((r) => (r ? [r] : []));
    else {
      const length = [...word].length;
      if (length < TYPO_MIN || length > TYPO_MAX) return null;
      corrected = true;
      ranges = parts.map((part) => {
        const near: TermRange[] = oneEditTerms(part.index, word).map((id) => ({ from: id, to: id + 1 }));
        if (last && length >= TYPO_PREFIX_MIN) near.push(...prefixTypoRanges(part.index, word));
        return liveRanges(part, near);
      });
      if (ranges.every((r) => r.length === 0)) return null;
    }
    ranges.forEach((r, p) => out[p].push({ ranges: r }));
  }
  return corrected ? out : null;
}
