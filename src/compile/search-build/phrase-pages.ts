import { PHRASE_TERMS_MAX } from '../../index-format/search/phrase-pages.js';
import type { FirstPagesWriter } from '../../index-format/search/first-pages-writer.js';
import type { SearchIndex } from '../../index-format/search/search-index.js';
import { hashRun } from '../../index-format/search/search-keys.js';
import { searchText } from '../../index-format/search/search-text.js';
import { searchIndex } from '../../search/search-engine.js';
import type { ExternalSorter } from '../../sort/external-sort.js';
import { nameOf, type SearchInputs } from './inputs.js';

/** Where the phrases come from: every name the index searches, and a sorter to drop repeats with. */
export interface PhraseSource {
  /** Calls `emit` with each name the index searches: its documents' and their credited artists' (repeats are fine). */
  readonly names: (emit: (name: string) => void) => void;
  /** An empty sorter (its runs in a spill directory, within a budget): rankPhrases drains it. */
  readonly sorter: () => ExternalSorter;
}

/** A text whose every word normalises to one term: ASCII letters and digits between spaces. */
const ONE_TERM_WORDS = /^[A-Za-z0-9\s]*$/;
const SPACE = /\s+/;

/**
 * Each word of `text` as written (between spaces) that the normalisation splits into several
 * terms, normalised: "さくら" → "さ く ら", "Rock'n'Roll" → "rock n roll", "AC/DC" → "ac dc".
 * A user types such a word as one word; its search is a query of several terms.
 */
export function severalTermWords(text: string, emit: (normal: string) => void): void {
  if (ONE_TERM_WORDS.test(text)) return;
  for (const word of text.split(SPACE)) {
    if (word.length < 2 || ONE_TERM_WORDS.test(word)) continue;
    const normal = searchText(word);
    const space = normal.indexOf(' ');
    if (space < 0) continue;
    let terms = 2;
    for (let at = normal.indexOf(' ', space + 1); at >= 0; at = normal.indexOf(' ', at + 1)) terms++;
    if (terms <= PHRASE_TERMS_MAX) emit(normal);
  }
}

/**
 * The names an index of `inputs` searches: each document's, in rank order, then each credited
 * artist's once.
 */
export function searchedNames(inputs: SearchInputs): (emit: (name: string) => void) => void {
  return (emit) => {
    const { ordinals, credits } = inputs;
    const credited = credits ? new Uint8Array((credits.artistNames.length + 7) >>> 3) : null;
    for (let r = 0; r < ordinals.length; r++) {
      const ordinal = ordinals[r];
      emit(nameOf(inputs.names, ordinal));
      if (!credits || !credited) continue;
      for (let k = credits.offsets[ordinal]; k < credits.offsets[ordinal + 1]; k++) credited[credits.targets[k] >>> 3] |= 1 << (credits.targets[k] & 7);
    }
    if (!credits || !credited) return;
    for (let a = 0; a < credits.artistNames.length; a++) if (credited[a >>> 3] & (1 << (a & 7))) emit(credits.artistNames.get(a));
  };
}

export interface PhraseRanking {
  readonly limit: number;
  /** A phrase gets a page when each of its words (the last: the words it starts) is held by this many documents or more. */
  readonly minPostings: number;
  /** The pair terms (ascending): a phrase of two of them has a two-word page already. */
  readonly pairTerms: Uint32Array;
}

/**
 * Ranks the costly phrase searches of `index` with the search engine and hands each to
 * `writer.addPhrase`, in the phrases' byte order. The names' several-term words go through the
 * source's sorter to drop repeats; memory past it: one phrase at a time.
 */
export function rankPhrases(index: SearchIndex, writer: FirstPagesWriter, source: PhraseSource, ranking: PhraseRanking): void {
  const sorter = source.sorter();
  const bytes = Buffer.alloc(4096);
  source.names((name) =>
    severalTermWords(name, (normal) => {
      const length = Buffer.byteLength(normal);
      sorter.add(length <= bytes.length ? bytes.subarray(0, bytes.write(normal)) : Buffer.from(normal));
    }),
  );
  const offsets = index.u32('postings.offsets');
  const held = (from: number, to: number) => offsets[to] - offsets[from];
  let previous = '';
  sorter.drain((buffer, keyStart, keyEnd) => {
    const normal = buffer.toString('utf8', keyStart, keyEnd);
    if (normal === previous) return;
    previous = normal;
    const words = normal.split(' ');
    const ids: number[] = [];
    let fewest = Infinity;
    for (let w = 0; w < words.length; w++) {
      const id = index.termId(words[w]);
      if (id < 0) return; // not a word of this index's names (cannot happen for its own names)
      ids.push(id);
      const range = w === words.length - 1 ? index.prefixRange(words[w]) : { from: id, to: id + 1 };
      fewest = Math.min(fewest, held(range.from, range.to));
    }
    if (fewest < ranking.minPostings) return;
    if (ids.length === 2 && ids[0] !== ids[1] && isPairTerm(ranking.pairTerms, ids[0]) && isPairTerm(ranking.pairTerms, ids[1])) return;
    const result = searchIndex(index, normal, { need: ranking.limit });
    writer.addPhrase(ids, result.total, result.hits);
  });
}

function isPairTerm(terms: Uint32Array, id: number): boolean {
  const run = hashRun(terms, id);
  return run.to > run.from;
}
