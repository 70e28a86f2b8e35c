import { artistSet, matchTitle } from '../../index-format/match-text.js';
import { searchText } from '../../index-format/search-text.js';
import type { Catalog, CatalogType } from '../catalog.js';
import { searchIndex } from '../search/search-engine.js';
import { jaroWinkler } from './jaro-winkler.js';
import { artistScore, combine, durationScore, titleScore, type PartScores } from './scoring.js';

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

/** Candidates taken from each search the matcher runs. */
const CANDIDATES_PER_SEARCH = 40;
/** Artists the fallback looks at per credited name, and works it reads per artist. */
const FALLBACK_ARTISTS = 3;
const FALLBACK_WORKS = 500;
/** How close an artist's name must be to a credited name for the fallback to read its works. */
const FALLBACK_ARTIST_SIMILARITY = 0.9;

/**
 * The best catalog resource for a user's metadata, or null when nothing reaches the threshold
 * (scoring.ts). Candidates come from the search index (the name with and without the artist,
 * and the version-free name, most specific first, each search stopping at CANDIDATES_PER_SEARCH),
 * so the cost is one to four searches and a few dozen record reads. A perfect score ends the
 * search early: a search walks in popularity order, so no later candidate could beat it.
 * Ties go to the more popular resource, then the smaller ordinal.
 */
export function matchResource(cat: Catalog, type: CatalogType, query: MatchQuery): MatchResult | null {
  const index = cat.search(type);
  const title = matchTitle(query.name);
  // Most specific first: a perfect score from "title artist" ends the search.
  const terms = new Set<string>();
  if (query.artist && type !== 'artist') terms.add(`${query.name} ${query.artist}`);
  terms.add(query.name);
  if (query.artist && type !== 'artist') terms.add(`${title.core} ${query.artist}`);
  terms.add(title.core);
  const candidates = new Map<number, number>(); // ordinal -> popularity rank
  let best: Best | null = null;
  for (const term of terms) {
    const found = new Map<number, number>();
    for (const hit of searchIndex(index, term, { window: CANDIDATES_PER_SEARCH }).hits) {
      const ordinal = index.ordinal(hit.rank);
      if (!candidates.has(ordinal)) {
        candidates.set(ordinal, hit.rank);
        found.set(ordinal, hit.rank);
      }
    }
    best = better(best, bestOf(cat, type, found, query, title));
    if (best !== null && best.score === 1) break;
  }
  if (best === null && query.artist && type !== 'artist') {
    // No candidate the words found is good enough: the title may have a typo in a word that
    // exists elsewhere ("Piece Of Your Heat"), or be in a script the words split poorly. The
    // credited artists' own works are the next place to look.
    best = bestOf(cat, type, worksOfArtists(cat, type, query.artist, candidates), query, title);
  }
  return best ? { ordinal: best.ordinal, score: best.score, parts: best.parts } : null;
}

type Best = MatchResult & { rank: number };

/** The higher score; on a tie the more popular (smaller rank), then the smaller ordinal. */
function better(a: Best | null, b: Best | null): Best | null {
  if (a === null) return b;
  if (b === null) return a;
  if (b.score !== a.score) return b.score > a.score ? b : a;
  if (b.rank !== a.rank) return b.rank < a.rank ? b : a;
  return b.ordinal < a.ordinal ? b : a;
}

function bestOf(cat: Catalog, type: CatalogType, candidates: Map<number, number>, query: MatchQuery, title: ReturnType<typeof matchTitle>): Best | null {
  let best: Best | null = null;
  for (const [ordinal, rank] of candidates) {
    const parts = scoreCandidate(cat, type, ordinal, query, title);
    const score = combine(parts);
    if (score !== null) best = better(best, { ordinal, score, parts, rank });
  }
  return best;
}

/** The songs or albums of the artists a credit names, not already among `seen`, ranked by popularity. */
function worksOfArtists(cat: Catalog, type: 'song' | 'album', credit: string, seen: Map<number, number>): Map<number, number> {
  const artists = cat.search('artist');
  const works = cat.relation(type === 'song' ? 'artist.songs' : 'artist.albums');
  const ranks = cat.rank(type, 'popularity');
  const out = new Map<number, number>();
  const names = new Set([searchText(credit), ...artistSet(credit)]);
  for (const name of names) {
    for (const hit of searchIndex(artists, name, { need: FALLBACK_ARTISTS }).hits) {
      if (jaroWinkler(name, artists.name(hit.rank)) < FALLBACK_ARTIST_SIMILARITY) continue;
      const targets = works.targetsOf(artists.ordinal(hit.rank));
      for (let i = 0; i < targets.length && i < FALLBACK_WORKS; i++) {
        const ordinal = targets[i];
        if (!seen.has(ordinal) && !out.has(ordinal)) out.set(ordinal, ranks[ordinal]);
      }
    }
  }
  return out;
}

function scoreCandidate(cat: Catalog, type: CatalogType, ordinal: number, query: MatchQuery, title: ReturnType<typeof matchTitle>): PartScores {
  if (type === 'artist') return { name: titleScore(title, matchTitle(cat.artist(ordinal).name)) };
  if (type === 'album') {
    const album = cat.album(ordinal);
    const parts: PartScores = { name: titleScore(title, matchTitle(album.name)) };
    if (query.artist) parts.artist = artistScore(query.artist, album.artistNames);
    return parts;
  }
  const song = cat.song(ordinal);
  const parts: PartScores = { name: titleScore(title, matchTitle(song.name)) };
  if (query.artist) parts.artist = artistScore(query.artist, song.artistNames);
  if (query.album) {
    const wanted = matchTitle(query.album);
    let album = 0;
    for (const a of cat.relation('song.albums').targetsOf(ordinal)) album = Math.max(album, titleScore(wanted, matchTitle(cat.album(a).name)));
    parts.album = album;
  }
  if (query.duration !== undefined) parts.duration = durationScore(query.duration, song.durationMs);
  return parts;
}
