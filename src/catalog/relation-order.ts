import type { Catalog, ResourceType } from './catalog.js';

/**
 * Stored relationship orders are the defaults of DECISIONS.md (credit order, disc/track, playlist
 * position, station rank, artist albums newest first, artist songs by name) except a song's
 * albums, stored primary album first: by default they are listed by name.
 */
export const DEFAULT_RELATION_SORT: Readonly<Record<string, string>> = { 'song:albums': 'name' };

/** Orders related ordinals by a precomputed rank; without a sort, keeps the stored order. */
export function sortByRank(cat: Catalog, type: ResourceType, ordinals: ArrayLike<number>, sort: string | undefined): ArrayLike<number> {
  if (sort === undefined || ordinals.length < 2 || type === 'station') return ordinals;
  const rank = cat.rank(type, sort);
  const keyed = Array.from(ordinals, (o) => [rank[o], o] as const);
  keyed.sort((a, b) => a[0] - b[0]);
  return keyed.map((k) => k[1]);
}
