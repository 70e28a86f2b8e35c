import type { Packr } from 'msgpackr';
import type { ExploreGroup } from '../catalog/explore-feed.js';
import type { MemoryBudget } from './memory-budget.js';
import { buildEntityOrders, type EntityOrderFiles } from './orders-build/index.js';
import type { IssueLog } from './raw-file.js';
import { openAdjacency, type AdjacencyArrays, type AdjacencyFiles } from './relations/adjacency-files.js';
import { deriveRelations, mapOrders } from './relations/derived-relations.js';
import { groupRawRelations, type RawRelations } from './relations/raw-relations.js';
import { SongInheritance } from './relations/song-inheritance.js';
import { planStations } from './relations/station-plan.js';
import type { SearchBuild } from './search-index.js';
import { ListColumn, mapF64Column, mapU32Column, StringColumn } from './spill/columns.js';
import type { SpillDir } from './spill/spill-dir.js';
import { openEntity, type EntityColumns } from './validate/entity-files.js';
import type { ValidatedCatalog } from './validate/validate-catalog.js';
import type { BuildContext } from './write/build-context.js';
import type { EdgeRecordsJob } from './write/edge-records.js';
import { planExplore } from './write/plan-explore.js';

export interface DerivedBuild {
  readonly context: BuildContext;
  readonly orderFiles: { songs: EntityOrderFiles; albums: EntityOrderFiles; artists: EntityOrderFiles; playlists: EntityOrderFiles };
  readonly explore: ExploreGroup[];
  /** What the records worker reads (column files only): the files and lyrics tables. */
  readonly edgeRecords: (outDir: string) => EdgeRecordsJob;
  /** What the search worker reads (column files only). */
  readonly search: (outDir: string, budgetBytes: number) => SearchBuild;
}

export interface DeriveOptions {
  readonly rawDir: string;
  readonly outDir: string;
  readonly buildId: string;
  readonly packr: Packr;
  readonly log: IssueLog;
  readonly onRow?: () => void;
}

/**
 * Everything between the first pass and the writers, on column files: relations grouped by
 * owner, each entity's orders, the relations ordered by those orders, stations and the explore
 * feed. Each step is one or a few sorts within the budget.
 */
export function deriveBuild(v: ValidatedCatalog, spill: SpillDir, budget: MemoryBudget, options: DeriveOptions): DerivedBuild {
  const raw = groupRawRelations(v, spill, budget);
  const songs = openEntity(v.entities.songs);
  const albums = openEntity(v.entities.albums);
  const artists = openEntity(v.entities.artists);
  const playlists = openEntity(v.entities.playlists);
  const customStations = openEntity(v.entities.stations);

  const bytes = budget.sorterBytes(1);
  const orderOf = (cols: EntityColumns, label: string, releaseDate?: Float64Array) =>
    buildEntityOrders({ count: cols.count, ids: cols.ids, names: cols.names, dateAdded: cols.dateAdded, popularity: cols.popularity, releaseDate }, spill, bytes, { label });
  const orderFiles = {
    songs: orderOf(songs, 'songs', mapF64Column(raw.songReleaseKey)),
    albums: orderOf(albums, 'albums', albums.releaseKey),
    artists: orderOf(artists, 'artists'),
    playlists: orderOf(playlists, 'playlists'),
  };
  const orders = { songs: mapOrders(orderFiles.songs), albums: mapOrders(orderFiles.albums), artists: mapOrders(orderFiles.artists), playlists: mapOrders(orderFiles.playlists) };

  const inherit = new SongInheritance(songs, albums, mapU32Column(raw.primaryAlbum));
  const derived = deriveRelations(raw, orders.songs, orders.albums, artists, v.genres.length, songs.count, inherit, spill, budget);
  const artistGenres = ListColumn.open(derived.artistGenres);
  const stations = planStations(
    {
      custom: customStations,
      artists,
      albums,
      genreNames: v.genres,
      customTracks: raw.customStationTracks,
      genreSongs: derived.genreSongs,
      artistSongs: derived.artistSongs,
      albumTracks: raw.albumTracks,
      albumArtists: raw.albumArtists,
      artistGenres,
      songs: orders.songs,
    },
    spill,
  );
  const relationFiles = relationsByName(raw, derived, stations.tracks);
  const relations = new Map<string, AdjacencyArrays>([...relationFiles].map(([name, files]) => [name, openAdjacency(files)]));
  const explore = planExplore({ raw: v.edges.explore, orders, albumReleaseKey: albums.releaseKey, genreSongs: relations.get('genre.songs')!, genreCount: v.genres.length, stations });

  const context: BuildContext = {
    ...options,
    songs,
    albums,
    artists,
    playlists,
    customStations,
    genres: v.genres,
    inherit,
    primaryTrack: mapU32Column(raw.primaryTrack),
    trackDisc: mapU32Column(v.edges.albumTracks.disc),
    trackNumber: mapU32Column(v.edges.albumTracks.track),
    lyricsLanguages: StringColumn.open(v.edges.lyrics.languages),
    artistGenres,
    relations,
    stations,
    orders,
  };
  const search = (outDir: string, budgetBytes: number): SearchBuild => ({
    outDir,
    buildId: options.buildId,
    spillDir: spill.path,
    budgetBytes,
    documents: [
      { type: 'song', ordinals: orderFiles.songs.orders.get('popularity')!, names: v.entities.songs.names, artists: credits(relationFiles.get('song.artists')!) },
      { type: 'album', ordinals: orderFiles.albums.orders.get('popularity')!, names: v.entities.albums.names, artists: credits(relationFiles.get('album.artists')!) },
      { type: 'artist', ordinals: orderFiles.artists.orders.get('popularity')!, names: v.entities.artists.names },
      { type: 'playlist', ordinals: orderFiles.playlists.orders.get('popularity')!, names: v.entities.playlists.names },
    ],
  });
  const credits = (adj: AdjacencyFiles) => ({ offsets: adj.offsets, targets: adj.targets, artistNames: v.entities.artists.names });
  const edgeRecords = (outDir: string): EdgeRecordsJob => ({
    rawDir: options.rawDir,
    outDir,
    buildId: options.buildId,
    rejectedLines: { 'files.csv': options.log.rejectedLinesOf('files.csv'), 'lyrics.csv': options.log.rejectedLinesOf('lyrics.csv') },
    fileSongPath: v.edges.files.owners,
    songDurationPath: v.entities.songs.duration,
  });
  return { context, orderFiles, explore, search, edgeRecords };
}

function relationsByName(raw: RawRelations, derived: ReturnType<typeof deriveRelations>, stationTracks: AdjacencyFiles): Map<string, AdjacencyFiles> {
  return new Map([
    ['album.artists', raw.albumArtists],
    ['album.tracks', raw.albumTracks],
    ['artist.albums', derived.artistAlbums],
    ['artist.songs', derived.artistSongs],
    ['genre.songs', derived.genreSongs],
    ['playlist.tracks', raw.playlistTracks],
    ['song.albums', raw.songAlbums],
    ['song.artists', raw.songArtists],
    ['song.files', raw.songFiles],
    ['song.lyrics', raw.songLyrics],
    ['station.tracks', stationTracks],
  ]);
}
