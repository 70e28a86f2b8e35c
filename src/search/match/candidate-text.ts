import { matchTitle, type MatchTitle } from './match-text.js';
import type { Catalog } from '../../catalog/catalog.js';
import type { CatalogType } from '../../catalog/catalog-ids.js';
import { normalArtistNames } from './scoring.js';

/** What scoring reads of a candidate, normalised: the same for every query that meets it. */
export interface CandidateText {
  readonly title: MatchTitle;
  /** Credited artists, each normalised (normalArtistNames); empty for artists. */
  readonly artists: readonly string[];
  /** Songs only. */
  readonly durationMs: number | null;
}

/** Candidates kept per catalog and type; the cache starts over when full. */
const CACHE_SIZE = 50_000;
const caches = new WeakMap<Catalog, Map<CatalogType, Map<number, CandidateText>>>();

/**
 * A candidate's normalised title and artists, from a small per-snapshot cache: popular
 * resources are candidates for many queries, and normalising a title (regular expressions,
 * Unicode folding) costs more than scoring it.
 */
export function candidateText(cat: Catalog, type: CatalogType, ordinal: number): CandidateText {
  let byType = caches.get(cat);
  if (!byType) caches.set(cat, (byType = new Map()));
  let cache = byType.get(type);
  if (!cache) byType.set(type, (cache = new Map()));
  let text = cache.get(ordinal);
  if (!text) {
    if (cache.size >= CACHE_SIZE) cache.clear();
    text = read(cat, type, ordinal);
    cache.set(ordinal, text);
  }
  return text;
}

function read(cat: Catalog, type: CatalogType, ordinal: number): CandidateText {
  if (type === 'artist') return { title: matchTitle(cat.artist(ordinal).name), artists: [], durationMs: null };
  if (type === 'album') {
    const album = cat.album(ordinal);
    return { title: matchTitle(album.name), artists: normalArtistNames(album.artistNames), durationMs: null };
  }
  const song = cat.song(ordinal);
  return { title: matchTitle(song.name), artists: normalArtistNames(song.artistNames), durationMs: song.durationMs };
}
