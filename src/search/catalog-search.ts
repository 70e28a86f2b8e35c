import type { Catalog } from '../catalog/catalog.js';
import type { SearchIndex } from '../index-format/search/search-index.js';
import { type SearchOptions, type SearchResult } from './ranking.js';
import { searchIndex } from './search-engine.js';
import { searchSegments } from './segmented-search.js';

/**
 * Search over a catalog as it is served: its one search index per type, or the segments of a
 * segmented snapshot (segmented-search.ts). Hits carry ranks that hitOrdinal and hitShare read
 * back; the handlers never touch an index themselves.
 */

export type SearchType = 'song' | 'album' | 'artist' | 'playlist';

export function searchCatalog(cat: Catalog, type: SearchType, term: string, options: SearchOptions = {}): SearchResult {
  const parts = cat.searchParts(type);
  return parts ? searchSegments(parts, term, options) : searchIndex(cat.search(type), term, options);
}

/** The ordinal a hit names. */
export function hitOrdinal(cat: Catalog, type: SearchType, rank: number): number {
  return cat.segments ? cat.order(type, 'popularity').get(rank) : cat.search(type).ordinal(rank);
}

/** A hit's place among the documents of its type in service, from 0 (the most popular) to 1. */
export function hitShare(cat: Catalog, type: SearchType, rank: number): number {
  if (cat.segments) return rank / cat.count(type);
  const index = cat.search(type);
  return (index.hidden?.liveRank(rank) ?? rank) / (index.documents - (index.hidden?.count ?? 0));
}

/** Every search index of a type (one, or one per segment holding documents of it): what a warm-up prepares. */
export function searchIndexesOf(cat: Catalog, type: SearchType): SearchIndex[] {
  return cat.searchParts(type)?.map((p) => p.index) ?? [cat.search(type)];
}
