import type { MatchTitle } from './match-text.js';
import type { SearchIndex } from '../../index-format/search/search-index.js';
import { TYPO_TERM_MAX, TYPO_TERM_MIN } from '../../index-format/search/search-keys.js';
import { oneEditTerms } from '../query-words.js';
import { ARTIST_TYPO_FROM, MIN_ARTIST_SCORE, MIN_NAME_SCORE, TITLE_TYPO_FROM } from './scoring.js';

/**
 * Cheap tests on a candidate's terms in the search index (no record read, no string decoded)
 * that say when it cannot pass the match thresholds, so it need not be scored. Both are
 * necessary conditions, never false for a candidate that could pass:
 * - title: every pair titleScore compares holds the query's version-free words (at least) and
 *   words of the candidate's name (at most), so each version-free query word with no
 *   counterpart among the name's terms (the same word, a term it starts, or one typo apart in
 *   4+ letters) lowers every pair's word coverage by 1 / (words of the whole query);
 * - artist: likewise for the credit's words against the artists' terms, both over the whole
 *   credit and per credited artist (artistSetScore takes the better).
 * Jaro-Winkler never raises a score above its coverage.
 */
export class CandidateFilter {
  private readonly titleWords: (Int32Array | null)[];
  private readonly titleMost: number;
  private readonly artists: (Int32Array | null)[][] | null;

  constructor(
    private readonly index: SearchIndex,
    title: MatchTitle,
    credit: readonly string[] | null,
  ) {
    this.titleWords = title.core.split(' ').map((w) => counterparts(index, w, TITLE_TYPO_FROM));
    this.titleMost = title.full.split(' ').length;
    this.artists = credit ? credit.map((artist) => artist.split(' ').map((w) => counterparts(index, w, ARTIST_TYPO_FROM))) : null;
  }

  /** False when the candidate cannot reach the name or the artist threshold. */
  canPass(rank: number): boolean {
    const offsets = this.index.u32('docname.offsets');
    const names = this.index.u32('docname.targets');
    let missing = 0;
    for (const pairs of this.titleWords) {
      if (pairs !== null && !anyIn(names, offsets[rank], offsets[rank + 1], pairs) && 1 - ++missing / this.titleMost < MIN_NAME_SCORE) return false;
    }
    if (this.artists === null) return true;
    if (this.artists.length === 0) return false;
    const artistOffsets = this.index.u32('docartist.offsets');
    const artistTerms = this.index.u32('docartist.targets');
    const from = artistOffsets[rank];
    const to = artistOffsets[rank + 1];
    let words = 0;
    let lost = 0;
    let perArtist = 0;
    for (const artist of this.artists) {
      let own = 0;
      for (const pairs of artist) if (pairs !== null && !anyIn(artistTerms, from, to, pairs)) own++;
      words += artist.length;
      lost += own;
      perArtist += 1 - own / artist.length;
    }
    return Math.max(1 - lost / words, perArtist / this.artists.length) >= MIN_ARTIST_SCORE;
  }
}

/**
 * The term id ranges [from, to) that answer for `word` as scoring counts it: the word itself,
 * the terms it starts (a prefix), and with `typoFrom`+ letters the terms one edit away. Null
 * when that cannot be told from the terms (a typo-length word whose neighbours the typo keys may
 * not hold): the word then counts as found.
 */
function counterparts(index: SearchIndex, word: string, typoFrom: number): Int32Array | null {
  if (word.length >= typoFrom) {
    // The typo keys hold terms of TYPO_TERM_MIN..TYPO_TERM_MAX characters.
    const n = [...word].length;
    if (n < TYPO_TERM_MIN + 1 || n > TYPO_TERM_MAX - 1) return null;
  }
  const pairs: number[] = [];
  const prefix = index.prefixRange(word);
  if (prefix.to > prefix.from) pairs.push(prefix.from, prefix.to);
  if (word.length >= typoFrom) for (const id of oneEditTerms(index, word)) pairs.push(id, id + 1);
  return Int32Array.from(pairs);
}

function anyIn(terms: Uint32Array, from: number, to: number, pairs: Int32Array): boolean {
  for (let k = from; k < to; k++) {
    const t = terms[k];
    for (let i = 0; i < pairs.length; i += 2) if (t >= pairs[i] && t < pairs[i + 1]) return true;
  }
  return false;
}
