import { matchTitle } from '../../index-format/match-text.js';
import type { Catalog, CatalogType } from '../catalog.js';
import { searchIndex } from '../search/search-engine.js';
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

/**
 * The best catalog resource for a user's metadata, or null when nothing reaches the threshold
 * (scoring.ts). Candidates come from the search index (the name with and without the artist,
 * and the version-free name), so the cost is a few searches and a few dozen record reads.
 * Ties go to the more popular resource, then the smaller ordinal.
 */
export function matchResource(cat: Catalog, type: CatalogType, query: MatchQuery): MatchResult | null {
  const index = cat.search(type);
  const title = matchTitle(query.name);
  const terms = new Set<string>([query.name, title.core]);
  if (query.artist && type !== 'artist') {
    terms.add(`${query.name} ${query.artist}`);
    terms.add(`${title.core} ${query.artist}`);
  }
  const candidates = new Map<number, number>(); // ordinal -> popularity rank
  for (const term of terms) {
    for (const hit of searchIndex(index, term).hits.slice(0, CANDIDATES_PER_SEARCH)) {
      const ordinal = index.ordinal(hit.rank);
      if (!candidates.has(ordinal)) candidates.set(ordinal, hit.rank);
    }
  }
  let best: (MatchResult & { rank: number }) | null = null;
  for (const [ordinal, rank] of candidates) {
    const parts = scoreCandidate(cat, type, ordinal, query, title);
    const score = combine(parts);
    if (score === null) continue;
    if (!best || score > best.score || (score === best.score && (rank < best.rank || (rank === best.rank && ordinal < best.ordinal)))) {
      best = { ordinal, score, parts, rank };
    }
  }
  return best ? { ordinal: best.ordinal, score: best.score, parts: best.parts } : null;
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
