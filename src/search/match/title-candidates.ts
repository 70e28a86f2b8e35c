import type { MatchTitle } from './match-text.js';
import { NAME_GROUP_MIN, NAME_GROUP_SCAN } from '../../index-format/search/name-groups.js';
import type { SearchIndex, TermRange } from '../../index-format/search/search-index.js';
import { searchText } from '../../index-format/search/search-text.js';
import { AscendingRun, WordSetRun } from '../../index-format/search/word-set-run.js';
import { creditKey } from '../../index-format/search/search-keys.js';

/* The matcher's first candidates: the documents titled exactly as the query (matcher.ts). */

/** Candidates taken from each search the matcher runs. */
export const CANDIDATES_PER_SEARCH = 40;
/**
 * Documents of one exact title the first pass looks through for the credited artists' words:
 * the compile's name groups cover as many (index-format/search/name-groups.ts).
 */
export const EXACT_TITLE_SCAN = NAME_GROUP_SCAN;

export interface TitleCandidates {
  /** Ordinal -> popularity rank. */
  readonly candidates: Map<number, number>;
  /** Every candidate's artists hold every word of the credit (a credit whose words are all terms). */
  readonly verified: boolean;
  /** Documents of the title were left unseen: past the scan, or past CANDIDATES_PER_SEARCH taken. */
  readonly partial: boolean;
  /**
   * The caller's `accept` was asked of every candidate as it was found, most popular first, and
   * `accepted` says whether one passed: the scan ended there (undefined: no `accept` was asked).
   */
  readonly accepted?: boolean;
}

const done = (out: Map<number, number>, ids: number[] | null, range: TermRange, accepted?: boolean): TitleCandidates => ({
  candidates: out,
  verified: ids !== null,
  partial: range.to - range.from > EXACT_TITLE_SCAN || out.size >= CANDIDATES_PER_SEARCH,
  accepted,
});

/**
 * Documents named exactly as the query (a range of the name order), most popular first, among
 * the first EXACT_TITLE_SCAN: with a credit whose words are all terms, those whose artists hold
 * every one; else the first CANDIDATES_PER_SEARCH. A cheap look at many documents before
 * scoring a few: a title scores 1 only when it is the query's. A large group with a credit is
 * answered from the compile's name groups, the same documents in the same order. With `accept`,
 * each candidate is offered to it as found, and the first it accepts ends the scan (the matcher's
 * first perfect one: the rest of a title's documents need not be read).
 */
export function exactTitleCandidates(
  index: SearchIndex,
  title: MatchTitle,
  credit: string | null,
  accept?: (ordinal: number, rank: number) => boolean,
): TitleCandidates {
  const passes = accept ?? (() => false);
  const none = accept ? false : undefined;
  const ids = credit !== null ? termIds(index, searchText(credit)) : null;
  const order = index.u32('names.order');
  const out = new Map<number, number>();
  const range = index.exactNameRange(title.full);
  // A large group: the compile listed which of its documents credit each term (name groups).
  // (An empty range may start where another name's group does: only a large range is looked up.)
  // Under a deletes set the list leaves the hidden out. It is the scan's answer when it still
  // holds CANDIDATES_PER_SEARCH, or when the scan could not reach past the listed window; else
  // the scan goes on past the window for as many documents as the window hid (it does not count
  // hidden ones), the listed ones found already.
  const hidden = index.hidden;
  const hiddenInWindow = hidden ? hidden.inNameRange(range.from, Math.min(range.to, range.from + EXACT_TITLE_SCAN)) : 0;
  const listed =
    ids === null || range.to - range.from < NAME_GROUP_MIN
      ? null
      : (index.firstPages?.nameGroups()?.holdingAll(range.from, ids, CANDIDATES_PER_SEARCH + hiddenInWindow) ?? null);
  const live = listed && hidden ? listed.filter((p) => !hidden.has(order[range.from + p])) : listed;
  let from = range.from;
  let scanned = 0;
  if (live !== null) {
    for (const p of live.slice(0, CANDIDATES_PER_SEARCH)) {
      const ordinal = index.ordinal(order[range.from + p]);
      out.set(ordinal, order[range.from + p]);
      if (passes(ordinal, order[range.from + p])) return done(out, ids, range, true);
    }
    if (hiddenInWindow === 0 || range.to - range.from <= EXACT_TITLE_SCAN || live.length >= CANDIDATES_PER_SEARCH) return done(out, ids, range, none);
    from = range.from + EXACT_TITLE_SCAN;
    scanned = EXACT_TITLE_SCAN - hiddenInWindow;
  }
  // A bit test first where a credit word has a bitmap (held in the name or the artists), then the artists' own terms.
  const maps = creditBitmaps(index, ids);
  for (let k = from; k < range.to && scanned < EXACT_TITLE_SCAN && out.size < CANDIDATES_PER_SEARCH; k++) {
    const rank = order[k];
    if (hidden?.has(rank)) continue;
    scanned++;
    if (ids !== null && !(inEveryBitmap(maps, rank) && index.artistsHold(rank, ids))) continue;
    const ordinal = index.ordinal(rank);
    out.set(ordinal, rank);
    if (passes(ordinal, rank)) return done(out, ids, range, true);
  }
  return done(out, ids, range, none);
}

/**
 * The bitmaps of the credit's words that have one (SearchIndex.bitmap: the documents holding the
 * word in their name or artists): a scan of a title tests a document's bits before its artists' terms.
 */
export function creditBitmaps(index: SearchIndex, ids: ArrayLike<number> | null): Uint32Array[] {
  return ids === null ? [] : Array.from(ids, (id) => index.bitmap(id)).filter((m): m is Uint32Array => m !== null);
}

/** Whether bit `rank` is set in every bitmap. */
export function inEveryBitmap(maps: readonly Uint32Array[], rank: number): boolean {
  for (const map of maps) if ((map[rank >>> 5] & (1 << (rank & 31))) === 0) return false;
  return true;
}

/** Documents under one word-set key looked at for the title's (creditedTitleCandidates). */
export const KEYED_SCAN = 1_000;
/**
 * Documents of the anchor key read for the candidates keyed under every credited artist's key
 * (commonKeyedCandidates), and how many of those named as the title it takes at most.
 */
export const COMMON_SCAN = 4_096;
export const COMMON_TAKEN = 100;

/**
 * Documents named exactly as the title whose words are the title's and one credited artist's
 * (the index's word-set keys: each document is keyed by its name's terms joined with each of its
 * artists'), most popular first, CANDIDATES_PER_SEARCH at most per artist among the first
 * KEYED_SCAN of its key, not those to `skip`, and only those more popular than the rank `below`
 * (each key's documents are read in popularity order, and no further): the song by that artist
 * under a title thousands of others share, found without reading them. The candidates that can
 * score 1 (a title scores 1 only when it is the query's). Hidden documents are left out. Empty
 * when a word is no term. A credit of one key needs none of this: commonKeyedCandidates reads
 * the same key further.
 */
export function creditedTitleCandidates(
  index: SearchIndex,
  title: MatchTitle,
  artists: readonly string[],
  skip: (ordinal: number) => boolean,
  below = Number.POSITIVE_INFINITY,
): Map<number, number> {
  const out = new Map<number, number>();
  const { sets, complete } = artistKeySets(index, title, artists);
  if (sets.length === 0 || (complete && sets.length === 1)) return out;
  const range = index.exactNameRange(title.full);
  for (const set of sets) {
    const named = new AscendingRun(index.u32('names.order'), range.from, range.to);
    let scanned = 0;
    let taken = 0;
    // The first KEYED_SCAN of the key, hidden ones counted (as SearchIndex.wordSetRanks counts them).
    new WordSetRun(index, set).forEach(null, (rank) => {
      if (++scanned > KEYED_SCAN || rank >= below) return false;
      if (index.hidden?.has(rank) || !named.holds(rank)) return true;
      const ordinal = index.ordinal(rank);
      if (!skip(ordinal)) out.set(ordinal, rank);
      return ++taken < CANDIDATES_PER_SEARCH;
    });
  }
  return out;
}

/**
 * Documents named exactly as the title that are keyed under the title's words joined with each
 * credited artist's, every one of them (as a document crediting every artist of the credit is):
 * among the first COMMON_SCAN documents in service of the anchor key, the one of the fewest
 * documents in service (counted up to COMMON_SCAN; the first in the credit's order on a tie),
 * COMMON_TAKEN at most, each to `visit` most popular first while it returns true. A song credited to a few artists
 * under a title thousands share is found however far down each artist's key it is. Empty when a
 * word is no term. With `credits` (an index with credit keys), the keys are the credit keys of
 * the title and each credited artist instead (creditKeySets): the documents titled so and
 * crediting an artist named so, far fewer than those of the same words.
 */
export function commonKeyedCandidates(
  index: SearchIndex,
  title: MatchTitle,
  artists: readonly string[],
  visit: (ordinal: number, rank: number) => boolean,
  credits = false,
): void {
  const { sets, complete } = credits ? creditKeySets(index, title, artists) : artistKeySets(index, title, artists);
  if (sets.length === 0 || !complete) return;
  const runs = sets.map((set) => new WordSetRun(index, set));
  const anchor = anchorOf(runs.map((run) => run.countInService(COMMON_SCAN, index.hidden)));
  const others = runs.filter((_, i) => i !== anchor);
  const named = titleRun(index, title);
  let scanned = 0;
  let taken = 0;
  runs[anchor].forEach(index.hidden, (rank) => {
    if (++scanned > COMMON_SCAN) return false;
    if (!named.holds(rank) || !others.every((run) => run.holds(rank))) return true;
    return visit(index.ordinal(rank), rank) && ++taken < COMMON_TAKEN;
  });
}

/** The documents named exactly as the title: a range of the name order, ascending by rank. */
function titleRun(index: SearchIndex, title: MatchTitle): AscendingRun {
  const range = index.exactNameRange(title.full);
  return new AscendingRun(index.u32('names.order'), range.from, range.to);
}

/** The key with the fewest documents (the first of them on a tie). */
export function anchorOf(counts: readonly number[]): number {
  let anchor = 0;
  for (let i = 1; i < counts.length; i++) if (counts[i] < counts[anchor]) anchor = i;
  return anchor;
}

/**
 * The distinct word sets (term ids ascending) of the title joined with each credited artist, in
 * the credit's order ("Love" and "Love Love" credited together make one); an artist with a word
 * that is no term makes none, and the sets are not `complete`. None when a word of the title is no term.
 */
export function artistKeySets(index: SearchIndex, title: MatchTitle, artists: readonly string[]): { sets: Uint32Array[]; complete: boolean } {
  return keysOf(index, title, artists, (titleIds, artistIds) => Uint32Array.from(new Set([...titleIds, ...artistIds])).sort());
}

/**
 * The distinct credit keys (search-keys.ts, creditKey) of the title and each credited artist, in
 * the credit's order; as artistKeySets, an artist with a word that is no term makes none, and the
 * keys are not `complete`.
 */
export function creditKeySets(index: SearchIndex, title: MatchTitle, artists: readonly string[]): { sets: Uint32Array[]; complete: boolean } {
  return keysOf(index, title, artists, creditKey);
}

/** The distinct keys `key` makes of the title's term ids and each credited artist's, in the credit's order (artistKeySets). */
function keysOf(
  index: SearchIndex,
  title: MatchTitle,
  artists: readonly string[],
  key: (titleIds: number[], artistIds: number[]) => Uint32Array,
): { sets: Uint32Array[]; complete: boolean } {
  const titleIds = termIds(index, title.full);
  if (titleIds === null) return { sets: [], complete: false };
  const sets: Uint32Array[] = [];
  let complete = true;
  const looked = new Set<string>();
  for (const artist of artists) {
    const artistIds = termIds(index, artist);
    if (artistIds === null) {
      complete = false;
      continue;
    }
    const set = key(titleIds, artistIds);
    if (looked.has(set.join(' '))) continue;
    looked.add(set.join(' '));
    sets.push(set);
  }
  return { sets, complete };
}

/** The term ids of a normalised text's words, or null when one is no term. */
function termIds(index: SearchIndex, text: string): number[] | null {
  const ids: number[] = [];
  for (const word of text.split(' ')) {
    if (word.length === 0) continue;
    const id = index.termId(word);
    if (id < 0) return null;
    ids.push(id);
  }
  return ids.length > 0 ? ids : null;
}
