import type { Catalog } from '../../catalog/catalog.js';
import { sortByRank } from '../../catalog/relation-order.js';
import { genreKey } from './params.js';
import { OUR_TYPE, type OmType } from '../../interfaces/openmusic/spec.js';
import { sliceOrdinals } from '../../catalog/ordinal-slice.js';

/** A page of a list: the ordinals shown and whether more follow. */
export interface ListPage {
  readonly ordinals: number[];
  readonly hasNext: boolean;
}

/** `offset`/`limit` of a materialised list. */
export function pageOf(all: ArrayLike<number>, offset: number, limit: number): ListPage {
  return { ordinals: sliceOrdinals(all, offset, offset + limit), hasNext: offset + limit < all.length };
}

/** A union of genre songs below this size is sorted directly; above, the order is scanned. */
const SORT_UNION_BELOW = 50_000;

/** Whether a resource carries one of the genres (names compared case-insensitively after NFKC). */
export function genrePredicate(cat: Catalog, type: OmType, genres: readonly string[]): (ordinal: number) => boolean {
  const wanted = new Set(genres);
  const record = (o: number): { genres: string[] } =>
    type === 'songs' ? cat.song(o) : type === 'albums' ? cat.album(o) : type === 'artists' ? cat.artist(o) : cat.playlist(o);
  return (o) => record(o).genres.some((g) => wanted.has(genreKey(g)));
}

/**
 * A page of every resource of a type in `sort` order that has one of `genres`. Songs use the
 * precomputed genre -> songs relation; other types test their records while walking the order
 * and stop as soon as the page (and one more, for has_next_page) is found.
 */
export function filteredListPage(cat: Catalog, type: OmType, sort: string, genres: readonly string[], offset: number, limit: number): ListPage {
  const ourType = OUR_TYPE[type] as 'song' | 'album' | 'artist' | 'playlist';
  if (type === 'songs') {
    const songs = new Set<number>();
    const genreSongs = cat.relation('genre.songs');
    for (const name of genres) {
      const g = cat.keys('genre.name').get(name);
      if (g >= 0) for (const s of genreSongs.targetsOf(g)) songs.add(s);
    }
    if (songs.size <= SORT_UNION_BELOW) return pageOf(sortByRank(cat, ourType, [...songs], sort), offset, limit);
    return scan(cat.order(ourType, sort), (o) => songs.has(o), offset, limit);
  }
  return scan(cat.order(ourType, sort), genrePredicate(cat, type, genres), offset, limit);
}

function scan(order: { readonly length: number; get(i: number): number }, keep: (o: number) => boolean, offset: number, limit: number): ListPage {
  const ordinals: number[] = [];
  let seen = 0;
  for (let i = 0; i < order.length; i++) {
    const o = order.get(i);
    if (!keep(o)) continue;
    if (seen++ < offset) continue;
    if (ordinals.length === limit) return { ordinals, hasNext: true };
    ordinals.push(o);
  }
  return { ordinals, hasNext: false };
}
