import { artistSet, matchTitle, type MatchTitle } from './match-text.js';
import { ONE_EDIT_BYTES } from '../../index-format/search/byte-diff.js';
import { searchText } from '../../index-format/search/search-text.js';
import { CANDIDATES_PER_SEARCH } from './title-candidates.js';
import type { Catalog } from '../../catalog/catalog.js';
import type { CatalogType } from '../../catalog/catalog-ids.js';
import { jaroWinkler } from './jaro-winkler.js';
import { withinOneEdit } from '../one-edit.js';
import { candidateText } from './candidate-text.js';
import { matchCorpus } from './corpus-of.js';
import type { MatchCorpus } from './match-corpus.js';
import { artistSetScore, artistSetScoreIsOne, combine, durationScore, titleScore, type PartScores } from './scoring.js';

export interface MatchQuery {
  readonly name: string;
  readonly artist?: string;
  readonly album?: string;
  /** Milliseconds. */
  readonly duration?: number;
}

export interface MatchResult {
  readonly ordinal: number;
  readonly score: number;
  readonly parts: PartScores;
}

/** Artists the fallback looks at per credited name, and works it reads per artist. */
const FALLBACK_ARTISTS = 3;
const FALLBACK_WORKS = 500;
/** How close an artist's name must be to a credited name for the fallback to read its works. */
const FALLBACK_ARTIST_SIMILARITY = 0.9;

/**
 * The best catalog resource for a user's metadata, or null when nothing reaches the threshold
 * (scoring.ts). Cheap, precise stages first; each ends the search when its best is decisive:
 * a score of 1, or (from stage 2 on) a score over the threshold for a candidate whose whole
 * normalised title is within one edit of the query's (the right title, give or take a typo).
 * 1. the documents named exactly as the query whose artists hold every word of the credit,
 *    most popular first (a range of the name order, a look at each one's artist terms); when
 *    that left some unseen, those titled so and crediting every artist named so (by credit key),
 *    then those whose words are the title's and the credited artists' (by word-set key: those
 *    under every artist's key, then each artist's), where only a score of 1 ends it;
 * 2. the credited artists' works whose title is one edit from the query's (a typo);
 * 3. the searches' lookup tiers only: exact name, name prefix, and the documents whose words
 *    are exactly the query's, one typo per word forgiven;
 * 4. the whole searches (the name with and without the artist, and the version-free name, most
 *    specific first, each stopping at CANDIDATES_PER_SEARCH), where only a score of 1 ends it;
 * 5. when nothing reached the threshold, the credited artists' other works.
 * Ties go to the more popular resource, then the smaller ordinal.
 */
export function matchResource(cat: Catalog, type: CatalogType, query: MatchQuery): MatchResult | null {
  const corpus = matchCorpus(cat, type);
  const title = matchTitle(query.name);
  const credit = query.artist && type !== 'artist' ? query.artist : null;
  const artists = credit ? artistSet(credit) : [];
  let filter: Filter | null = null;
  const prepared: Prepared = {
    corpus,
    title,
    artists,
    fullBytes: Buffer.from(title.full, 'utf8'),
    filter: () => (filter ??= corpus.filter(title, credit ? artists : null)),
  };
  const decisive = (best: Best | null) => best !== null && (best.score === 1 || withinOneEdit(corpus.name(best.ordinal, best.rank), title.full));

  // Each candidate scored as it is found, most popular first, where the corpus does: the first to score 1 is the answer.
  let early: Best | null = null;
  const accept = (ordinal: number, rank: number) => (early = perfectOne(cat, type, ordinal, rank, query, prepared)) !== null;
  const { candidates, verified, partial, accepted } = corpus.exactTitleCandidates(title, credit, accept); // ordinal -> popularity rank
  if (accepted) return result(early!);
  // Candidates whose artists were seen to hold every credited word pass the filter's tests: not
  // filtered. All of them are titled as the query.
  const first = splitByName(candidates, prepared, !verified, true);
  const perfect = accepted === false ? null : firstPerfect(cat, type, first.sameName, query, prepared);
  if (perfect !== null) return result(perfect);
  if (credit && type !== 'artist' && partial) {
    // The title's documents were not all seen: those whose words are the title's and the credited
    // artists', by key. Only a perfect score ends the search here; else it goes on as if this had not been.
    const keyed = perfectByKey(cat, type, candidates, query, prepared);
    if (keyed !== null) return result(keyed);
  }
  // The first candidates' best below 1, scored only now (the keys' perfect one made it needless).
  let best = bestScored(cat, type, first, query, prepared);
  if (credit && type !== 'artist') {
    const near = nearTitlesOfArtists(cat, type, prepared, candidates);
    for (const [ordinal, rank] of near) candidates.set(ordinal, rank);
    best = better(best, bestOf(cat, type, near, query, prepared));
    if (decisive(best)) return result(best!);
  }
  // Most specific first: a perfect score from "title artist" ends the search.
  const terms = new Set<string>();
  if (credit) terms.add(`${query.name} ${credit}`);
  terms.add(query.name);
  if (credit) terms.add(`${title.core} ${credit}`);
  terms.add(title.core);
  for (const scans of [false, true]) {
    for (const term of terms) {
      const found = new Map<number, number>();
      for (const [ordinal, rank] of corpus.search(term, { window: CANDIDATES_PER_SEARCH, scans })) {
        if (!candidates.has(ordinal)) {
          candidates.set(ordinal, rank);
          found.set(ordinal, rank);
        }
      }
      best = better(best, bestOf(cat, type, found, query, prepared));
      if (best !== null && best.score === 1) return result(best);
    }
    if (!scans && decisive(best)) return result(best!);
  }
  if (best === null && credit && type !== 'artist') {
    // No candidate the words found is good enough: the title may have a typo in a word that
    // exists elsewhere ("Piece Of Your Heat"), or be in a script the words split poorly. The
    // credited artists' own works are the next place to look.
    best = bestOf(cat, type, worksOfArtists(cat, type, credit, artists, candidates), query, prepared);
  }
  return best ? result(best) : null;
}

type Best = MatchResult & { rank: number };

type Filter = ReturnType<MatchCorpus['filter']>;

/** What scoring needs of the query, worked out once. */
interface Prepared {
  /** The documents of the type matched. */
  readonly corpus: MatchCorpus;
  readonly title: MatchTitle;
  /** The credited artists, normalised (empty without a credit). */
  readonly artists: readonly string[];
  /** The whole normalised title as UTF-8, as the index stores names. */
  readonly fullBytes: Buffer;
  /** Built on first use. */
  readonly filter: () => Filter;
}

/** Candidates at which bestOf starts to filter them first. */
const FILTER_FROM = 4;

const result = (best: Best): MatchResult => ({ ordinal: best.ordinal, score: best.score, parts: best.parts });

/** The higher score; on a tie the more popular (smaller rank), then the smaller ordinal. */
function better(a: Best | null, b: Best | null): Best | null {
  if (a === null) return b;
  if (b === null) return a;
  if (b.score !== a.score) return b.score > a.score ? b : a;
  if (b.rank !== a.rank) return b.rank < a.rank ? b : a;
  return b.ordinal < a.ordinal ? b : a;
}

/**
 * The best of the candidates (ordinal -> popularity rank). A candidate whose terms say it
 * cannot reach the thresholds (CandidateFilter) is not read. Only a candidate whose normalised name is
 * the query's can score 1 (a title scores 1 only when equal), so those are scored first, most
 * popular first, and the first to score 1 is the answer: no other can beat it. With a credit,
 * one whose artists cannot score 1 is passed over in that first look.
 */
function bestOf(cat: Catalog, type: CatalogType, candidates: Map<number, number>, query: MatchQuery, prepared: Prepared, filtered = true): Best | null {
  const split = splitByName(candidates, prepared, filtered);
  return firstPerfect(cat, type, split.sameName, query, prepared) ?? bestScored(cat, type, split, query, prepared);
}

interface SplitByName {
  readonly sameName: [number, number][];
  readonly others: [number, number][];
}

/** The candidates that may pass the thresholds, those named as the query apart (all of them when `named`: none is read). */
function splitByName(candidates: Map<number, number>, prepared: Prepared, filtered: boolean, named = false): SplitByName {
  // A few candidates are scored as they are; the filter's setup costs more than it saves there.
  const filter = filtered && candidates.size > FILTER_FROM ? prepared.filter() : null;
  const { corpus, fullBytes: full } = prepared;
  const sameName: [number, number][] = [];
  const others: [number, number][] = [];
  for (const entry of candidates) {
    if (filter && !filter.canPass(entry[0], entry[1])) continue;
    (named || corpus.nameEquals(entry[0], entry[1], full) ? sameName : others).push(entry);
  }
  return { sameName, others };
}

/** The best of the candidates scored in full: those named as the query first. */
function bestScored(cat: Catalog, type: CatalogType, { sameName, others }: SplitByName, query: MatchQuery, prepared: Prepared): Best | null {
  let best: Best | null = null;
  for (const [ordinal, rank] of [...sameName, ...others]) {
    const parts = scoreCandidate(cat, type, ordinal, query, prepared);
    const score = combine(parts);
    if (score !== null) best = better(best, { ordinal, score, parts, rank });
    if (best !== null && best.score === 1) break;
  }
  return best;
}

/**
 * The most popular document named as the title that scores 1 among those the keys find
 * (title-candidates.ts): those keyed under every credited artist's key, scored as they come,
 * most popular first; then each artist's key only as far as a more popular one, passing over
 * those already scored; with credit keys, those keyed under every credited artist's credit key
 * before any of these. Null when none scores 1. `seen`: the candidates scored already.
 */
function perfectByKey(cat: Catalog, type: CatalogType, seen: Map<number, number>, query: MatchQuery, prepared: Prepared): Best | null {
  const { corpus, title, artists } = prepared;
  // Those titled so and crediting every artist named so first (credit keys): a handful, where the
  // word sets may hold thousands. The word sets are then read only as far as a more popular one
  // (a credit of the same words in another order, or split otherwise, also scores 1).
  let credited: Best | null = null;
  if (corpus.creditKeys) {
    const visit = (ordinal: number, rank: number) => seen.has(ordinal) || (credited = perfectOne(cat, type, ordinal, rank, query, prepared)) === null;
    corpus.commonKeyedCandidates(title, artists, visit, true);
  }
  const limit = (credited as Best | null)?.rank ?? Number.POSITIVE_INFINITY;
  const scored = new Set<number>();
  let common: Best | null = null;
  corpus.commonKeyedCandidates(title, artists, (ordinal, rank) => {
    if (rank >= limit) return false;
    if (seen.has(ordinal)) return true;
    scored.add(ordinal);
    common = perfectOne(cat, type, ordinal, rank, query, prepared);
    return common === null;
  });
  const skip = (ordinal: number) => seen.has(ordinal) || scored.has(ordinal);
  const below = (common as Best | null)?.rank ?? limit;
  return firstPerfect(cat, type, [...corpus.creditedTitleCandidates(title, artists, skip, below)], query, prepared) ?? common ?? credited;
}

/**
 * The most popular of the candidates (ordinal, rank) named as the query that scores 1, or null
 * (the candidates are sorted by rank in place):
 * looked for with a cheap test of its artists first (artistSetScoreIsOne), so that the others
 * need not be scored. When one scores 1, no other candidate can beat it.
 */
function firstPerfect(cat: Catalog, type: CatalogType, sameName: [number, number][], query: MatchQuery, prepared: Prepared): Best | null {
  for (const [ordinal, rank] of sameName.sort((a, b) => a[1] - b[1])) {
    const perfect = perfectOne(cat, type, ordinal, rank, query, prepared);
    if (perfect !== null) return perfect;
  }
  return null;
}

/** The candidate scored, when it scores 1 (its artists tested cheaply first); else null. */
function perfectOne(cat: Catalog, type: CatalogType, ordinal: number, rank: number, query: MatchQuery, prepared: Prepared): Best | null {
  if (query.artist && type !== 'artist' && !artistSetScoreIsOne(prepared.artists, candidateText(cat, type, ordinal).artists)) return null;
  const parts = scoreCandidate(cat, type, ordinal, query, prepared);
  return combine(parts) === 1 ? { ordinal, score: 1, parts, rank } : null;
}

/** Artists of one exact name the typo pass reads the works of. */
const NEAR_TITLE_ARTISTS = 20;

/**
 * Works of the artists named exactly as a credited artist (at most NEAR_TITLE_ARTISTS per name,
 * FALLBACK_WORKS per artist) whose normalised name is one edit from the query's, not already
 * among `seen`: a title with one typo, by the right artist, found without a search.
 */
function nearTitlesOfArtists(cat: Catalog, type: 'song' | 'album', prepared: Prepared, seen: Map<number, number>): Map<number, number> {
  const artists = matchCorpus(cat, 'artist');
  const { corpus } = prepared;
  const works = cat.relation(type === 'song' ? 'artist.songs' : 'artist.albums');
  const ranks = cat.rank(type, 'popularity');
  const full = prepared.title.full;
  const fullBytes = prepared.fullBytes;
  const out = new Map<number, number>();
  for (const name of prepared.artists) {
    for (const artist of artists.namedExactly(name, NEAR_TITLE_ARTISTS)) {
      const targets = works.targetsOf(artist, 0, FALLBACK_WORKS);
      for (let i = 0; i < targets.length && i < FALLBACK_WORKS; i++) {
        const ordinal = targets[i];
        // A test of the bytes first: one edit (a swap of two neighbours included) leaves at most
        // ONE_EDIT_BYTES different bytes on each side. Most names fail it on their first and last bytes.
        const rank = ranks[ordinal];
        if (!corpus.nameDiffersWithin(ordinal, rank, fullBytes, ONE_EDIT_BYTES) || seen.has(ordinal) || out.has(ordinal)) continue;
        if (withinOneEdit(corpus.name(ordinal, rank), full)) out.set(ordinal, rank);
      }
    }
  }
  return out;
}

/** The songs or albums of the artists a credit names, not already among `seen`, ranked by popularity. */
function worksOfArtists(cat: Catalog, type: 'song' | 'album', credit: string, credited: readonly string[], seen: Map<number, number>): Map<number, number> {
  const artists = matchCorpus(cat, 'artist');
  const works = cat.relation(type === 'song' ? 'artist.songs' : 'artist.albums');
  const ranks = cat.rank(type, 'popularity');
  const out = new Map<number, number>();
  const names = new Set([searchText(credit), ...credited]);
  for (const name of names) {
    for (const [artist, rank] of artists.search(name, { need: FALLBACK_ARTISTS })) {
      if (jaroWinkler(name, artists.name(artist, rank)) < FALLBACK_ARTIST_SIMILARITY) continue;
      const targets = works.targetsOf(artist, 0, FALLBACK_WORKS);
      for (let i = 0; i < targets.length && i < FALLBACK_WORKS; i++) {
        const ordinal = targets[i];
        if (!seen.has(ordinal) && !out.has(ordinal)) out.set(ordinal, ranks[ordinal]);
      }
    }
  }
  return out;
}

function scoreCandidate(cat: Catalog, type: CatalogType, ordinal: number, query: MatchQuery, prepared: Prepared): PartScores {
  const candidate = candidateText(cat, type, ordinal);
  const parts: PartScores = { name: titleScore(prepared.title, candidate.title) };
  if (type === 'artist') return parts;
  if (query.artist) parts.artist = artistSetScore(prepared.artists, candidate.artists);
  if (type === 'album') return parts;
  if (query.album) {
    const wanted = matchTitle(query.album);
    let album = 0;
    for (const a of cat.relation('song.albums').targetsOf(ordinal)) album = Math.max(album, titleScore(wanted, candidateText(cat, 'album', a).title));
    parts.album = album;
  }
  if (query.duration !== undefined) parts.duration = durationScore(query.duration, candidate.durationMs);
  return parts;
}
