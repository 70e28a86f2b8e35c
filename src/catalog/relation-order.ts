import type { Catalog, ResourceType } from './catalog.js';
import { mapOrdinals } from './ordinal-slice.js';

/**
 * Stored relationship orders are the defaults of DECISIONS.md (credit order, disc/track, playlist
 * position, station rank, artist albums newest first, artist songs by name) except a song's
 * albums, stored primary album first: by default they are listed by name.
 */
export const DEFAULT_RELATION_SORT: Readonly<Record<string, string>> = { 'song:albums': 'name' };

/**
 * `type:rel`, the key of a relationship's default sort here and of its limit and sort in a
 * request, made once per pair: a string built per request would be hashed again at every lookup.
 */
export function relationKey(type: string, rel: string): string {
  let byRel = relationKeys.get(type);
  if (!byRel) relationKeys.set(type, (byRel = new Map()));
  let key = byRel.get(rel);
  if (key === undefined) {
    key = `${type}:${rel}`;
    if (byRel.size < 64) byRel.set(rel, key);
  }
  return key;
}
const relationKeys = new Map<string, Map<string, string>>();

/** Orders related ordinals by a precomputed rank; without a sort, keeps the stored order. */
export function sortByRank(cat: Catalog, type: ResourceType, ordinals: ArrayLike<number>, sort: string | undefined): ArrayLike<number> {
  if (sort === undefined || ordinals.length < 2 || type === 'station') return ordinals;
  const rank = cat.rank(type, sort);
  const keyed = mapOrdinals(ordinals, ordinals.length, (o) => [rank[o], o] as const);
  keyed.sort((a, b) => a[0] - b[0]);
  return keyed.map((k) => k[1]);
}
