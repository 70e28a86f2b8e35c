import type { DeltaNext } from './delta-next.js';
import type { GenreLists } from './genre-lists.js';
import type { CompiledType } from './next-numbering.js';
import { placeSorted } from './place-sorted.js';
import { compareSortKeys, sortKeyOf, type SortableRecord } from './sort-order.js';

/** How many genres an artist without their own takes from their songs (derived-relations.ts). */
const DERIVED_GENRES = 3;

/**
 * The lists the candidates' compile cannot make whole, made from the lists in service instead, so
 * that compile reads the delivery's songs and not every song of every artist they credit:
 *
 * - an artist's songs (by name) and albums (newest release first): the list in service less what
 *   the delta holds or takes out, with the held songs and albums crediting them placed by
 *   binary search (place-sorted.ts);
 * - an artist without genres of their own takes the three most frequent of their songs'
 *   (ties: the genre numbered first), counted over that list;
 * - a playlist's tracks: the list in service less the songs taken out (a delivery adds none), its
 *   track count with it.
 */
export function patchArtistsAndPlaylists(
  next: DeltaNext,
  removed: Record<CompiledType, number[]>,
  genres: GenreLists,
  withoutOwnGenres: ReadonlySet<string>,
): void {
  const heldSongs = next.heldOf('song').global;
  const heldAlbums = next.heldOf('album').global;
  const staleSongs = new Set<number>([...heldSongs, ...removed.song]);
  const staleAlbums = new Set<number>([...heldAlbums, ...removed.album]);
  const songsOf = creditedBy(next, heldSongs, 'song.artists');
  const albumsOf = creditedBy(next, heldAlbums, 'album.artists');
  const byName = compareSortKeys('name');
  const byRelease = compareSortKeys('-releaseDate');
  for (const a of next.candidates('artist')) {
    const before = (name: string, stale: Set<number>) =>
      a < next.prev.records('artist').count && !next.prev.isDeleted('artist', a)
        ? Array.from(next.prev.relation(name).targetsOf(a)).filter((t) => !stale.has(t))
        : [];
    const songs = placeSorted(before('artist.songs', staleSongs), songsOf.get(a) ?? [], byName, (s) =>
      sortKeyOf('name', next.record<SortableRecord>('song', s)),
    );
    const albums = placeSorted(before('artist.albums', staleAlbums), albumsOf.get(a) ?? [], byRelease, (al) =>
      sortKeyOf('-releaseDate', next.record<SortableRecord>('album', al)),
    );
    next.patchList('artist.songs', a, songs);
    next.patchList('artist.albums', a, albums);
    const record = next.record<{ id: string; genres: string[] }>('artist', a);
    if (withoutOwnGenres.has(record.id)) next.patchRecord('artist', a, { ...record, genres: derivedGenres(next, songs, genres) });
  }
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

/** The three most frequent genres of the songs, ties by the genre numbered first, by their display names. */
function derivedGenres(next: DeltaNext, songs: readonly number[], genres: GenreLists): string[] {
  const counts = new Map<number, number>();
  for (const s of songs) {
    for (const name of next.record<{ genres: string[] }>('song', s).genres) {
      const g = genres.ordinalOf(name);
      if (g >= 0) counts.set(g, (counts.get(g) ?? 0) + 1);
    }
  }
  return [...counts.entries()]
    .sort((x, y) => y[1] - x[1] || x[0] - y[0])
    .slice(0, DERIVED_GENRES)
    .map(([g]) => genres.name(g));
}
