import type { GenreRecord } from '../../catalog/records.js';
import { genreSlug } from '../relations/station-plan.js';
import type { DeltaNext } from './delta-next.js';
import { ordinalBitmap, placeByPosition, type OrderPositions } from './order-positions.js';

/** A genre as served once the delta is in: its record and its songs by popularity, in global ordinals. */
export interface NextGenre {
  readonly g: number;
  readonly record: GenreRecord;
  readonly songs: Uint32Array;
}

/** The genres whose song lists a delta changes, and the new ones, by global ordinal; every other genre is served as it is. */
export interface GenreLists {
  readonly changed: Map<number, NextGenre>;
  /** Genres nothing names any more (no song in service, no album, artist or playlist of their own), ascending. */
  readonly removed: number[];
  /** Genre name (as keyed: NFKC, lower case) -> global ordinal, for every genre once the delta is in. */
  ordinalOf(name: string): number;
  /** A genre's display name (its first spelling). */
  name(g: number): string;
  /** Whether a genre is served once the delta is in. */
  served(g: number): boolean;
  /** A genre's songs once the delta is in. */
  songs(g: number): ArrayLike<number>;
  readonly size: number;
}

const keyOf = (name: string) => name.normalize('NFKC').toLowerCase();

/**
 * The song lists of the genres the delta's songs are in, before or after (a genre's list is its
 * songs by popularity, genre-songs in derived-relations.ts): the list in service less the songs
 * the delta holds or takes out, with the held songs of the genre placed by their positions in the
 * songs' popularity order once the delta is in (`popularity`), the order of every genre list.
 */
export function genreLists(
  next: DeltaNext,
  songsHeld: ArrayLike<number>,
  songsRemoved: ArrayLike<number>,
  served: Served,
  popularity: OrderPositions,
): GenreLists {
  const { prev } = next;
  const keys = prev.keys('genre.name');
  const prevGenres = prev.records('genre');
  const byName = new Map<string, { name: string; added: number[] }>();
  const touch = (name: string) => {
    let entry = byName.get(keyOf(name));
    if (!entry) byName.set(keyOf(name), (entry = { name, added: [] }));
    return entry;
  };
  const stale = ordinalBitmap(songsHeld, songsRemoved);
  for (const list of [songsHeld, songsRemoved]) {
    for (let i = 0; i < list.length; i++) {
      const g = list[i];
      if (g < prev.records('song').count && !prev.isDeleted('song', g))
        for (const name of prev.records('song').get<{ genres: string[] }>(g).genres) touch(name);
    }
  }
  for (let i = 0; i < songsHeld.length; i++)
    for (const name of next.record<{ genres: string[] }>('song', songsHeld[i]).genres) touch(name).added.push(songsHeld[i]);

  const changed = new Map<number, NextGenre>();
  const fresh = new Map<string, number>();
  let size = prevGenres.count;
  for (const [key, { name, added }] of byName) {
    let g = keys.get(key);
    const before = g >= 0 ? prev.relation('genre.songs').targetsOf(g) : new Uint32Array(0);
    const songs = placeByPosition(before, stale, added, popularity);
    const record: GenreRecord =
      g >= 0 ? { ...prevGenres.get<GenreRecord>(g), songCount: songs.length } : { name, stationId: `genre-${genreSlug(name)}`, songCount: songs.length };
    if (g < 0) {
      g = size++;
      fresh.set(key, g);
    }
    changed.set(g, { g, record, songs });
  }
  const emptied = [...changed.values()].filter((genre) => genre.songs.length === 0 && genre.g < prevGenres.count).map((genre) => genre.g);
  const removed = emptied.length > 0 ? unnamed(next, emptied, served) : [];
  for (const g of removed) changed.delete(g);
  return {
    changed,
    removed,
    name: (g) => changed.get(g)?.record.name ?? prevGenres.get<GenreRecord>(g).name,
    served: (g) => changed.has(g) || (g < prevGenres.count && !removed.includes(g) && !prev.segments?.removed('genre', g)),
    size,
    ordinalOf: (name) => fresh.get(keyOf(name)) ?? keys.get(keyOf(name)),
    songs: (g) => changed.get(g)?.songs ?? prev.relation('genre.songs').targetsOf(g),
  };
}

type Served = (type: 'album' | 'artist' | 'playlist', g: number) => boolean;

/**
 * Of genres no song in service is in any more, those nothing else names: a full compile numbers
 * a genre any album, artist or playlist row names (genre-names.ts). An artist's record names its
 * own genres, or its songs' (none of these). Reads every album, artist and playlist: a rare case.
 */
function unnamed(next: DeltaNext, emptied: number[], served: Served): number[] {
  const keys = new Map(emptied.map((g) => [keyOf(next.prev.records('genre').get<{ name: string }>(g).name), g]));
  const named = new Set<number>();
  for (const type of ['album', 'artist', 'playlist'] as const) {
    const size = Math.max(next.prev.records(type).count, ...next.candidates(type).map((g) => g + 1));
    for (let g = 0; g < size && named.size < keys.size; g++) {
      if (!served(type, g)) continue;
      for (const name of next.record<{ genres: string[] }>(type, g).genres) {
        const genre = keys.get(keyOf(name));
        if (genre !== undefined) named.add(genre);
      }
    }
  }
  return emptied.filter((g) => !named.has(g)).sort((a, b) => a - b);
}
