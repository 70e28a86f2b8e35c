import { groupByPosition, groupByTargetRank, groupEdges, reverseAdjacency, type AdjacencyArrays } from './adjacency.js';
import type { CatalogIndex, EntityColumns } from './catalog-index.js';
import { invert, localIdRanks, orderByDense, orderByNumber, orderByString, reverseDense } from './orders.js';
import { nameSortKey } from './sort-keys.js';

/** The sort values an entity's lists accept, and the popularity order used for ranking. */
export const SONG_ORDERS = ['name', '-name', 'dateAdded', '-dateAdded', 'releaseDate', '-releaseDate', 'popularity'] as const;
export const ARTIST_ORDERS = ['name', '-name', 'dateAdded', '-dateAdded', 'popularity'] as const;

export interface EntityOrders {
  readonly idRank: Uint32Array;
  /** order name -> ordinals in that order. */
  readonly orders: Map<string, Uint32Array>;
  /** order name -> rank of each ordinal in that order. */
  readonly ranks: Map<string, Uint32Array>;
}

export interface DerivedCatalog {
  readonly songs: EntityOrders;
  readonly albums: EntityOrders;
  readonly artists: EntityOrders;
  readonly playlists: EntityOrders;
  /** Per song: genres after falling back to the primary album's. */
  readonly songGenres: (number[] | undefined)[];
  readonly songReleaseDate: (string | undefined)[];
  readonly artistGenres: (number[] | undefined)[];
  readonly relations: Map<string, AdjacencyArrays>;
}

function entityOrders(cols: EntityColumns, releaseKeys: ArrayLike<number> | null, withRelease: boolean): EntityOrders {
  const idRank = localIdRanks(cols.ids);
  const orders = new Map<string, Uint32Array>();
  const byName = orderByString(cols.names.map(nameSortKey), idRank);
  orders.set('name', byName.order);
  orders.set('-name', orderByDense(reverseDense(byName.dense), idRank));
  orders.set('dateAdded', orderByNumber(cols.dateAdded, idRank, false));
  orders.set('-dateAdded', orderByNumber(cols.dateAdded, idRank, true));
  if (withRelease) {
    const keys = releaseKeys ?? cols.releaseDate;
    orders.set('releaseDate', orderByNumber(keys, idRank, false));
    orders.set('-releaseDate', orderByNumber(keys, idRank, true));
  }
  orders.set('popularity', orderByNumber(cols.popularity, idRank, true));
  const ranks = new Map<string, Uint32Array>();
  for (const [name, order] of orders) ranks.set(name, invert(order));
  return { idRank, orders, ranks };
}

/**
 * Resolves every relationship and precomputes every order the interfaces serve. Runs on the
 * first pass's columns only.
 */
export function deriveCatalog(index: CatalogIndex): DerivedCatalog {
  const { songs, albums, artists, playlists } = index;
  const relations = new Map<string, AdjacencyArrays>();

  // Song fallbacks to the primary album: genres, release date, credits.
  const primaryAlbum = index.songPrimaryTrackRow.map((row) => (row < 0 ? -1 : index.albumTracks.owners[row]));
  const songGenres = songs.genres.map((g, s) => g ?? (primaryAlbum[s] >= 0 ? albums.genres[primaryAlbum[s]] : undefined));
  const songReleaseDate = songs.releaseDateText.map((d, s) => d ?? (primaryAlbum[s] >= 0 ? albums.releaseDateText[primaryAlbum[s]] : undefined));
  const songReleaseKeys = songs.releaseDate.map((k, s) => (Number.isNaN(k) && primaryAlbum[s] >= 0 ? albums.releaseDate[primaryAlbum[s]] : k));

  const songOrders = entityOrders(songs, songReleaseKeys, true);
  const albumOrders = entityOrders(albums, null, true);
  const artistOrders = entityOrders(artists, null, false);
  const playlistOrders = entityOrders(playlists, null, false);

  const albumArtists = groupByPosition(albums.count, index.albumCredits);
  relations.set('album.artists', albumArtists);
  const ownSongArtists = groupByPosition(songs.count, index.songCredits);
  relations.set('song.artists', inheritCredits(ownSongArtists, albumArtists, primaryAlbum));
  relations.set(
    'album.tracks',
    groupEdges(albums.count, index.albumTracks.owners, index.albumTracks.targets, (a, b) => index.albumTracks.positions[a] - index.albumTracks.positions[b]),
  );
  // song -> albums: the primary album (first album_tracks row) first, then row order.
  relations.set('song.albums', groupEdges(songs.count, index.albumTracks.targets, index.albumTracks.owners));
  relations.set('artist.albums', reverseAdjacency(albumArtists, artists.count, albumOrders.ranks.get('-releaseDate')));
  relations.set('artist.songs', reverseAdjacency(relations.get('song.artists')!, artists.count, songOrders.ranks.get('name')));
  relations.set('playlist.tracks', groupByPosition(playlists.count, index.playlistTracks));
  relations.set('song.files', groupByPosition(songs.count, index.songFiles));
  relations.set('song.lyrics', groupEdges(songs.count, index.songLyrics.owners, index.songLyrics.targets));

  // genre -> songs by popularity.
  const genreOwners: number[] = [];
  const genreSongs: number[] = [];
  songGenres.forEach((genres, s) => genres?.forEach((g) => (genreOwners.push(g), genreSongs.push(s))));
  relations.set('genre.songs', groupByTargetRank(index.genreNames.length, genreOwners, genreSongs, songOrders.ranks.get('popularity')!));

  const artistGenres = deriveArtistGenres(index, relations.get('artist.songs')!, songGenres);
  return {
    songs: songOrders,
    albums: albumOrders,
    artists: artistOrders,
    playlists: playlistOrders,
    songGenres,
    songReleaseDate,
    artistGenres,
    relations,
  };
}

/** Songs without credit rows take the credits of their primary album. */
function inheritCredits(own: AdjacencyArrays, albumArtists: AdjacencyArrays, primaryAlbum: number[]): AdjacencyArrays {
  const n = own.offsets.length - 1;
  const offsets = new Uint32Array(n + 1);
  const targets: number[] = [];
  for (let s = 0; s < n; s++) {
    let from = own.offsets[s];
    let to = own.offsets[s + 1];
    let source = own.targets;
    if (from === to && primaryAlbum[s] >= 0) {
      from = albumArtists.offsets[primaryAlbum[s]];
      to = albumArtists.offsets[primaryAlbum[s] + 1];
      source = albumArtists.targets;
    }
    for (let i = from; i < to; i++) targets.push(source[i]);
    offsets[s + 1] = targets.length;
  }
  return { offsets, targets: Uint32Array.from(targets) };
}

/** An artist without genres takes the three most frequent genres of their songs. */
function deriveArtistGenres(index: CatalogIndex, artistSongs: AdjacencyArrays, songGenres: (number[] | undefined)[]): (number[] | undefined)[] {
  return index.artists.genres.map((own, a) => {
    if (own) return own;
    const counts = new Map<number, number>();
    for (let i = artistSongs.offsets[a]; i < artistSongs.offsets[a + 1]; i++) {
      for (const g of songGenres[artistSongs.targets[i]] ?? []) counts.set(g, (counts.get(g) ?? 0) + 1);
    }
    if (counts.size === 0) return undefined;
    return [...counts.entries()].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, 3).map(([g]) => g);
  });
}
