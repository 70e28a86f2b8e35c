import { artistSet, matchTitle, sortedWords, type MatchTitle } from '../../index-format/match-text.js';
import { editDistance } from '../search/typo-variants.js';
import { jaroWinkler } from './jaro-winkler.js';

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
 * How close two titles are: Jaro-Winkler over the normalised titles, the version-free cores
 * counting almost fully (" - Remastered 2011" on one side only costs 0.02), scaled down by the
 * share of query words that no candidate word comes near (so one swapped word sinks a title that
 * Jaro-Winkler alone would call close). A query that is a word-prefix of the title (a truncated
 * title) loses only what Jaro-Winkler takes.
 */
export function titleScore(query: MatchTitle, candidate: MatchTitle): number {
  if (query.full === candidate.full) return 1;
  // A match through the version-free core costs 0.02, and 0.01 more when the candidate carries a
  // version note of its own: "Hola - Remastered 2011" is the original "Hola" rather than "Hola - Remix".
  const core = candidate.core === candidate.full ? 0.98 : 0.97;
  const pairs: [string, string, number][] = [
    [query.full, candidate.full, 1],
    [query.core, candidate.core, core],
    [query.full, candidate.core, core],
    [query.core, candidate.full, 0.98],
  ];
  let best = 0;
  for (const [q, c, weight] of pairs) {
    if (q.length === 0 || c.length === 0) continue;
    const score = (q === c ? 1 : jaroWinkler(q, c) * wordCoverage(q, c)) * weight;
    if (score > best) best = score;
  }
  return best;
}

/** Share of the query's words that have a counterpart in the candidate (exact, one typo, or a truncated last word). */
export function wordCoverage(query: string, candidate: string): number {
  const q = query.split(' ');
  const c = candidate.split(' ');
  let missing = 0;
  q.forEach((word, i) => {
    const last = i === q.length - 1;
    const found = c.some((w) => w === word || (last && w.startsWith(word)) || (word.length >= 4 && editDistance(word, w, 1) <= 1));
    if (!found) missing++;
  });
  return 1 - missing / q.length;
}

/**
 * How close a free-text artist credit is to a candidate's credited artists: the best of the
 * whole credit against the joined names, the same with words in any order, and the credit taken
 * as a set ("A & B", "B, A", or only "A"), where each query artist must be among the candidate's.
 */
export function artistScore(credit: string, candidateArtists: readonly string[]): number {
  if (candidateArtists.length === 0) return 0;
  const query = artistSet(credit);
  if (query.length === 0) return 0;
  const names = candidateArtists.map((a) => artistSet(a).join(' '));
  const joinedQuery = query.join(' ');
  const joinedNames = names.join(' ');
  let best = Math.max(jaroWinkler(joinedQuery, joinedNames), jaroWinkler(sortedWords(joinedQuery), sortedWords(joinedNames)));
  // Each query artist against its best candidate artist; all must be there.
  let sum = 0;
  for (const a of query) sum += Math.max(...names.map((n) => jaroWinkler(a, n) * wordCoverage(a, n)));
  best = Math.max(best, sum / query.length);
  return Math.min(1, best);
}

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
