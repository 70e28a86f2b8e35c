import type { DeltaNext } from './delta-next.js';
import type { GenreLists } from './genre-lists.js';
import type { CompiledType } from './next-numbering.js';
import { ordinalBitmap, placeByPosition, type OrderPositions } from './order-positions.js';

/** How many genres an artist without their own takes from their songs (derived-relations.ts). */
const DERIVED_GENRES = 3;

/**
 * The lists the candidates' compile cannot make whole, made from the lists in service instead, so
 * that compile reads the delivery's songs and not every song of every artist they credit:
 *
 * - an artist's songs (by name) and albums (newest release first): the list in service less what
 *   the delta holds or takes out, with the held songs and albums crediting them placed by their
 *   positions in those orders once the delta is in (order-positions.ts);
 * - an artist without genres of their own takes the three most frequent of their songs'
 *   (ties: the genre numbered first), counted over that list: a held song's genres from its
 *   record, the others' from the genre lists in service (keptSongGenres);
 * - a playlist's tracks: the list in service less the songs taken out (a delivery adds none), its
 *   track count with it.
 */
export function patchArtistsAndPlaylists(
  next: DeltaNext,
  removed: Record<CompiledType, number[]>,
  genres: GenreLists,
  withoutOwnGenres: ReadonlySet<string>,
  orders: { songsByName: OrderPositions; albumsNewestFirst: OrderPositions },
): void {
  const heldSongs = next.heldOf('song').global;
  const heldAlbums = next.heldOf('album').global;
  const staleSongs = ordinalBitmap(heldSongs, removed.song);
  const staleAlbums = ordinalBitmap(heldAlbums, removed.album);
  const songsOf = creditedBy(next, heldSongs, 'song.artists');
  const albumsOf = creditedBy(next, heldAlbums, 'album.artists');
  const deriving = new Map<number, { record: { id: string; genres: string[] }; songs: Uint32Array }>();
  for (const a of next.candidates('artist')) {
    const inService = a < next.prev.records('artist').count && !next.prev.isDeleted('artist', a);
    const before = (name: string) => (inService ? next.prev.relation(name).targetsOf(a) : []);
    const songs = placeByPosition(before('artist.songs'), staleSongs, songsOf.get(a) ?? [], orders.songsByName);
    const albums = placeByPosition(before('artist.albums'), staleAlbums, albumsOf.get(a) ?? [], orders.albumsNewestFirst);
    next.patchList('artist.songs', a, songs);
    next.patchList('artist.albums', a, albums);
    const record = next.record<{ id: string; genres: string[] }>('artist', a);
    if (withoutOwnGenres.has(record.id)) deriving.set(a, { record, songs });
  }
  const songGenres = keptSongGenres(next, deriving.values(), ordinalBitmap(heldSongs));
  const genresOf = (s: number): readonly number[] => {
    let list = songGenres.get(s);
    if (!list) songGenres.set(s, (list = next.miniOf('song', s) >= 0 ? heldSongGenres(next, s, genres) : []));
    return list;
  };
  for (const [a, { record, songs }] of deriving) next.patchRecord('artist', a, { ...record, genres: derivedGenres(songs, genres, genresOf) });
  const removedSongs = new Set(removed.song);
  for (const p of next.candidates('playlist')) {
    if (p >= next.prev.records('playlist').count) continue;
    const tracks = Array.from(next.prev.relation('playlist.tracks').targetsOf(p)).filter((s) => !removedSongs.has(s));
    next.patchList('playlist.tracks', p, tracks);
    next.patchRecord('playlist', p, { ...next.prev.records('playlist').get<Record<string, unknown>>(p), trackCount: tracks.length });
  }
}

/** Per artist, the held sources crediting them. */
function creditedBy(next: DeltaNext, held: ArrayLike<number>, credits: string): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (let i = 0; i < held.length; i++) {
    for (const a of Array.from(next.list(credits, held[i]))) {
      let list = out.get(a);
      if (!list) out.set(a, (list = []));
      list.push(held[i]);
    }
  }
  return out;
}

/**
 * The genres (ordinals) of the songs of `artists` the delta does not hold, read off the genre
 * lists in service in one pass over them (a genre's list holds every song of that genre once),
 * instead of a record decoded per song: a song served as it is keeps the genres it had.
 */
function keptSongGenres(next: DeltaNext, artists: Iterable<{ songs: Uint32Array }>, held: Uint8Array): Map<number, number[]> {
  const size = next.prev.records('song').count;
  const wanted = new Uint8Array(size);
  let any = false;
  for (const { songs } of artists)
    for (const s of songs)
      if (s < size && !(s < held.length && held[s] === 1)) {
        wanted[s] = 1;
        any = true;
      }
  const out = new Map<number, number[]>();
  if (!any) return out;
  const lists = next.prev.relation('genre.songs');
  for (let g = 0; g < next.prev.records('genre').count; g++) {
    const songs = lists.targetsOf(g);
    for (let i = 0; i < songs.length; i++) {
      const s = songs[i];
      if (wanted[s] !== 1) continue;
      const list = out.get(s);
      if (list) list.push(g);
      else out.set(s, [g]);
    }
  }
  return out;
}

/** A song's genres (ordinals once the delta is in) from its record. */
function heldSongGenres(next: DeltaNext, s: number, genres: GenreLists): number[] {
  const out: number[] = [];
  for (const name of next.record<{ genres: string[] }>('song', s).genres) {
    const g = genres.ordinalOf(name);
    if (g >= 0) out.push(g);
  }
  return out;
}

/** The three most frequent genres of the songs, ties by the genre numbered first, by their display names. */
function derivedGenres(songs: ArrayLike<number>, genres: GenreLists, genresOf: (s: number) => readonly number[]): string[] {
  const counts = new Map<number, number>();
  for (let i = 0; i < songs.length; i++) for (const g of genresOf(songs[i])) counts.set(g, (counts.get(g) ?? 0) + 1);
  return [...counts.entries()]
    .sort((x, y) => y[1] - x[1] || x[0] - y[0])
    .slice(0, DERIVED_GENRES)
    .map(([g]) => genres.name(g));
}
