import { artistSet, sortedWords, type MatchTitle } from './match-text.js';
import { jaroWinkler } from './jaro-winkler.js';
import { withinOneEdit } from '../one-edit.js';

/**
 * Scores of one candidate against a query, each in [0, 1]. The combination follows the
 * reference service (Jaro-Winkler, name 0.6, artist 0.3, album 0.1), over the parts the query
 * gives, with the duration as a fourth part when given.
 */
export const WEIGHTS = { name: 0.6, artist: 0.3, album: 0.1, duration: 0.1 } as const;

/**
 * The documented threshold: an answer needs a combined score of at least MIN_SCORE and a name
 * score of at least MIN_NAME_SCORE, or the answer is 404. See docs/api-v1.md#match.
 */
export const MIN_SCORE = 0.9;
export const MIN_NAME_SCORE = 0.88;
/** An artist scoring under this vetoes the candidate (a right title by the wrong artist is no match). */
export const MIN_ARTIST_SCORE = 0.75;

/**
 * How close two titles are: Jaro-Winkler over the normalised titles, scaled down by the share of
 * query words that no candidate word comes near (so one swapped word sinks a title that
 * Jaro-Winkler alone would call close). A query that is a word-prefix of the title (a truncated
 * title) loses only what Jaro-Winkler takes.
 *
 * Notes are optional, at a small cost, so that the closest version wins:
 * - featuring credits: the titles without them count 0.99 ("Style (Taylor's Version) (feat. X)"
 *   is "Style (Taylor's Version)" before "Style");
 * - version notes: the version-free cores count 0.98, 0.97 when the candidate carries a note of
 *   its own ("Hola - Remastered 2011" is the original "Hola" before "Hola - Remix");
 * - a subtitle: the title proper alone counts 0.96 ("Waka Waka" for "Waka Waka (This Time
 *   for Africa)");
 * - guests both titles name and agree on add 0.005 ("Save Me (with X) (feat. Y)" is
 *   "Save Me (with X)" before "Save Me").
 * A note is optional only when one side lacks it: when both titles credit guests and neither
 * list holds the other, or both carry version notes with no distinctive word in common
 * ("Live" vs "Remastered 2011"), the titles are other recordings and only the words count.
 */
export function titleScore(query: MatchTitle, candidate: MatchTitle): number {
  if (query.full === candidate.full) return 1;
  const guests = featuringAgreement(query.featuring, candidate.featuring);
  const pairs: [string, string, number][] = [[query.full, candidate.full, 1]];
  if (guests !== 'conflict') {
    const bonus = guests === 'agree' ? 0.005 : 0;
    pairs.push([query.plain, candidate.plain, 0.99 + bonus]);
    if (!versionsConflict(query.versionWords, candidate.versionWords)) {
      const core = (candidate.core === candidate.plain ? 0.98 : 0.97) + bonus;
      pairs.push([query.core, candidate.core, core], [query.plain, candidate.core, core], [query.core, candidate.plain, 0.98 + bonus]);
      // A subtitle left out: "Waka Waka" for "Waka Waka (This Time for Africa)".
      if (candidate.head !== candidate.core) pairs.push([query.core, candidate.head, 0.96]);
    }
  }
  // The parts are often the same strings (a title with no notes): each distinct pair is compared once.
  let best = 0;
  const seen: [string, string, number][] = [];
  for (const [q, c, weight] of pairs) {
    if (q.length === 0 || c.length === 0) continue;
    let known = seen.find((p) => p[0] === q && p[1] === c);
    if (!known) seen.push((known = [q, c, similarity(q, c)]));
    const score = known[2] * weight;
    if (score > best) best = score;
  }
  return best;
}

/** Title words shorter than this must be spelled right. */
export const TITLE_TYPO_FROM = 4;

/** A typo in a title of the right words counts this much, whatever Jaro-Winkler says of a short word ("Ranald", "Ronald"). */
export const TYPO_SIMILARITY = 0.95;

/** Jaro-Winkler scaled by word coverage, and at least TYPO_SIMILARITY when the words are the same but for one typo. */
export function similarity(q: string, c: string): number {
  if (q === c) return 1;
  const score = jaroWinkler(q, c) * wordCoverage(q, c);
  return score < TYPO_SIMILARITY && oneTypoApart(q, c) ? TYPO_SIMILARITY : score;
}

/** The same words in the same order but one, which is one edit from its counterpart (both 4+ letters). */
function oneTypoApart(q: string, c: string): boolean {
  const a = q.split(' ');
  const b = c.split(' ');
  if (a.length !== b.length) return false;
  let typos = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (++typos > 1 || a[i].length < 4 || b[i].length < 4 || !withinOneEdit(a[i], b[i])) return false;
  }
  return true;
}

/** Whether two titles' guest credits agree: 'absent' when either has none, 'agree' when one list holds the other. */
export function featuringAgreement(query: readonly string[], candidate: readonly string[]): 'absent' | 'agree' | 'conflict' {
  if (query.length === 0 || candidate.length === 0) return 'absent';
  const holds = (outer: readonly string[], inner: readonly string[]) => inner.every((a) => outer.some((b) => sameName(a, b)));
  return holds(query, candidate) || holds(candidate, query) ? 'agree' : 'conflict';
}

/** Both titles carry version notes and no distinctive word of one comes near a word of the other. */
export function versionsConflict(query: readonly string[], candidate: readonly string[]): boolean {
  if (query.length === 0 || candidate.length === 0) return false;
  return !query.some((q) => candidate.some((c) => nearWord(q, c)));
}

/** The same word, one a prefix of the other ("remaster", "remastered"), or one typo apart (4+ letters). */
function nearWord(a: string, b: string): boolean {
  return a === b || a.startsWith(b) || b.startsWith(a) || (a.length >= 4 && withinOneEdit(a, b));
}

/** Two normalised names that are the same up to one typo per word of 4+ letters. */
function sameName(a: string, b: string): boolean {
  return a === b || (wordCoverage(a, b) === 1 && wordCoverage(b, a) === 1);
}

/**
 * Share of the query's words that have a counterpart in the candidate (exact, a truncated last
 * word, or one typo in a word of `typoFrom`+ characters).
 */
export function wordCoverage(query: string, candidate: string, typoFrom = TITLE_TYPO_FROM): number {
  const q = query.split(' ');
  const c = candidate.split(' ');
  // One candidate word answers for one query word ("where" may not lean on the "here" that
  // "here" already matched): exact matches first, then prefixes and typos.
  const used = new Uint8Array(c.length);
  const open: number[] = [];
  for (let i = 0; i < q.length; i++) {
    const j = c.findIndex((w, k) => !used[k] && w === q[i]);
    if (j >= 0) used[j] = 1;
    else open.push(i);
  }
  let missing = 0;
  for (const i of open) {
    const word = q[i];
    const last = i === q.length - 1;
    const j = c.findIndex((w, k) => !used[k] && ((last && w.startsWith(word)) || (word.length >= typoFrom && withinOneEdit(word, w))));
    if (j >= 0) used[j] = 1;
    else missing++;
  }
  return 1 - missing / q.length;
}

/**
 * How close a free-text artist credit is to a candidate's credited artists: the best of the
 * whole credit against the joined names, the same with words in any order, and the credit taken
 * as a set ("A & B", "B, A", or only "A"), where each query artist must be among the candidate's.
 */
export function artistScore(credit: string, candidateArtists: readonly string[]): number {
  return artistSetScore(artistSet(credit), normalArtistNames(candidateArtists));
}

/** A candidate's credited artists as artistSetScore takes them: each normalised, its parts joined. */
export function normalArtistNames(candidateArtists: readonly string[]): string[] {
  return candidateArtists.map((a) => artistSet(a).join(' '));
}

/** artistScore over a credit already split by artistSet and names from normalArtistNames. */
export function artistSetScore(query: readonly string[], names: readonly string[]): number {
  if (names.length === 0 || query.length === 0) return 0;
  const joinedQuery = query.join(' ');
  const joinedNames = names.join(' ');
  // The whole credit, as written and with words in any order; words of the query that no
  // candidate word comes near scale it down ("The Black Keys" is not "The Rolling Stones").
  // Names are short and a letter changes whose they are ("Tyga", "Tyla"): a typo is forgiven in
  // words of ARTIST_TYPO_FROM+ letters only.
  // The same credit, as written: 1 (the usual case), and nothing below can change it.
  if (joinedQuery === joinedNames) return 1;
  const coverage = wordCoverage(joinedQuery, joinedNames, ARTIST_TYPO_FROM);
  let best = Math.max(jaroWinkler(joinedQuery, joinedNames), jaroWinkler(sortedWords(joinedQuery), sortedWords(joinedNames))) * coverage;
  // Each query artist against its best candidate artist; all must be there.
  let sum = 0;
  for (const a of query) sum += Math.max(...names.map((n) => jaroWinkler(a, n) * wordCoverage(a, n, ARTIST_TYPO_FROM)));
  best = Math.max(best, sum / query.length);
  return Math.min(1, best);
}

/**
 * Whether artistSetScore(query, names) is 1, without computing it: Jaro-Winkler is 1 only for
 * equal strings and coverage only up to 1, so the score is 1 exactly when the joined credits are
 * equal, or hold the same words in another order, or every query artist is one of the names.
 */
export function artistSetScoreIsOne(query: readonly string[], names: readonly string[]): boolean {
  if (names.length === 0 || query.length === 0) return false;
  const joinedQuery = query.join(' ');
  const joinedNames = names.join(' ');
  if (joinedQuery === joinedNames || query.every((a) => names.includes(a))) return true;
  return joinedQuery.length === joinedNames.length && sortedWords(joinedQuery) === sortedWords(joinedNames);
}

/** Artist name words shorter than this must be spelled right. */
export const ARTIST_TYPO_FROM = 5;

/** 1 within 3 s, falling to 0 at 30 s apart. */
export function durationScore(queryMs: number, candidateMs: number | null): number {
  if (candidateMs === null) return 0.5;
  const diff = Math.abs(queryMs - candidateMs);
  if (diff <= 3000) return 1;
  return Math.max(0, 1 - (diff - 3000) / 27_000);
}

export interface PartScores {
  name: number;
  artist?: number;
  album?: number;
  duration?: number;
}

/** The weighted mean of the given parts; null when a part vetoes the candidate. */
export function combine(parts: PartScores): number | null {
  if (parts.name < MIN_NAME_SCORE) return null;
  let sum = parts.name * WEIGHTS.name;
  let weight = WEIGHTS.name;
  for (const key of ['artist', 'album', 'duration'] as const) {
    const value = parts[key];
    if (value === undefined) continue;
    if (key === 'artist' && value < MIN_ARTIST_SCORE) return null;
    sum += value * WEIGHTS[key];
    weight += WEIGHTS[key];
  }
  const score = sum / weight;
  return score >= MIN_SCORE ? score : null;
}
