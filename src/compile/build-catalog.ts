import type { Packr } from 'msgpackr';
import type { ExploreGroup } from '../catalog/explore-feed.js';
import type { MemoryBudget } from './memory-budget.js';
import {
  addReleaseOrders,
  finishEntityOrders,
  startEntityOrders,
  type EntityOrderFiles,
  type OrdersBeforeRelease,
  type StartedEntityOrders,
} from './orders-build/index.js';
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
import { planExplore } from './write/plan-explore.js';
import type { SongRecordsJob } from './write/song-records.js';

export interface DerivedBuild {
  readonly context: BuildContext;
  /** The songs table's job, for a worker (song-records.ts). */
  readonly songRecords: SongRecordsJob;
  readonly orderFiles: { songs: EntityOrderFiles; albums: EntityOrderFiles; artists: EntityOrderFiles; playlists: EntityOrderFiles };
  readonly explore: ExploreGroup[];
}

export interface DeriveOptions {
  readonly rawDir: string;
  readonly outDir: string;
  readonly buildId: string;
  readonly packr: Packr;
  readonly log: IssueLog;
  readonly onRow?: () => void;
  /**
   * Called as soon as the search index's inputs exist (orders and credits), before the rest is
   * derived, so the search worker can start: what it reads (column files only).
   */
  readonly onSearchInputs?: (search: SearchInputs) => void;
  /**
   * The songs' orders but those by release date, built on a worker since the entities were
   * resolved (orders-beside.ts), within a quarter of the budget's room until it is done.
   */
  readonly songOrders: Promise<OrdersBeforeRelease>;
}

/** The search build for a staging directory and a memory share. */
export type SearchInputs = (outDir: string, budgetBytes: number) => SearchBuild;

/**
 * Everything between the first pass and the writers, on column files: relations grouped by
 * owner, each entity's orders, the relations ordered by those orders, stations and the explore
 * feed. Each step is one or a few sorts within the budget.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: not yet split by phase (issue 40, item 7)
export async function deriveBuild(v: ValidatedCatalog, spill: SpillDir, budget: MemoryBudget, options: DeriveOptions): Promise<DerivedBuild> {
  // The songs' orders are sorting on a worker meanwhile (a quarter of the budget's room): this
  // thread sorts within half until the search build takes the other half.
  const half = budget.share(0.5);
  const raw = groupRawRelations(v, spill, half);
  const songs = openEntity(v.entities.songs);
  const albums = openEntity(v.entities.albums);
  const artists = openEntity(v.entities.artists);
  const playlists = openEntity(v.entities.playlists);
  const customStations = openEntity(v.entities.stations);

  // The popularity orders first (all the search index needs), then the search build starts
  // beside the rest; from then on this thread sorts within half of the budget's room.
  const inputsOf = (cols: EntityColumns, releaseDate?: Float64Array) => ({
    count: cols.count,
    ids: cols.ids,
    names: cols.names,
    dateAdded: cols.dateAdded,
    popularity: cols.popularity,
    releaseDate,
  });
  const started = {
    albums: startEntityOrders(inputsOf(albums, albums.releaseKey), spill, half.sorterBytes(1), { label: 'albums' }),
    artists: startEntityOrders(inputsOf(artists), spill, half.sorterBytes(1), { label: 'artists' }),
    playlists: startEntityOrders(inputsOf(playlists), spill, half.sorterBytes(1), { label: 'playlists' }),
  };
  const songOrders = await options.songOrders;
  const credits = (adj: AdjacencyFiles) => ({ offsets: adj.offsets, targets: adj.targets, artistNames: v.entities.artists.names });
  const search = (outDir: string, budgetBytes: number): SearchBuild => ({
    outDir,
    buildId: options.buildId,
    spillDir: spill.path,
    budgetBytes,
    documents: [
      { type: 'song', ordinals: songOrders.popularity, names: v.entities.songs.names, artists: credits(raw.songArtists) },
      { type: 'album', ordinals: started.albums.popularity, names: v.entities.albums.names, artists: credits(raw.albumArtists) },
      { type: 'artist', ordinals: started.artists.popularity, names: v.entities.artists.names },
      { type: 'playlist', ordinals: started.playlists.popularity, names: v.entities.playlists.names },
    ],
  });
  options.onSearchInputs?.(search);
  const rest = options.onSearchInputs ? half : budget;
  const finish = (s: StartedEntityOrders, label: string) => finishEntityOrders(s, spill, rest.sorterBytes(1), { label });
  const orderFiles = {
    songs: addReleaseOrders(songOrders, songs.count, mapF64Column(raw.songReleaseKey), spill, rest.sorterBytes(1), { label: 'songs' }),
    albums: finish(started.albums, 'albums'),
    artists: finish(started.artists, 'artists'),
    playlists: finish(started.playlists, 'playlists'),
  };
  const orders = {
    songs: mapOrders(orderFiles.songs),
    albums: mapOrders(orderFiles.albums),
    artists: mapOrders(orderFiles.artists),
    playlists: mapOrders(orderFiles.playlists),
  };

  const inherit = new SongInheritance(songs, albums, mapU32Column(raw.primaryAlbum));
  const derived = deriveRelations(raw, orders.songs, orders.albums, orders.playlists, artists, v.genres.length, songs.count, inherit, spill, rest);
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
  const explore = planExplore({
    raw: v.edges.explore,
    orders,
    albumReleaseKey: albums.releaseKey,
    genreSongs: relations.get('genre.songs')!,
    genreCount: v.genres.length,
    stations,
  });

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
  const songRecords: SongRecordsJob = {
    outDir: options.outDir,
    buildId: options.buildId,
    songs: v.entities.songs,
    albums: v.entities.albums,
    artists: v.entities.artists,
    genres: v.genres,
    primaryAlbum: raw.primaryAlbum,
    primaryTrack: raw.primaryTrack,
    trackDisc: v.edges.albumTracks.disc,
    trackNumber: v.edges.albumTracks.track,
    lyricsLanguages: v.edges.lyrics.languages,
    songArtists: relationFiles.get('song.artists')!,
    songLyrics: relationFiles.get('song.lyrics')!,
  };
  return { context, songRecords, orderFiles, explore };
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
    ['song.playlists', derived.songPlaylists],
    ['station.tracks', stationTracks],
  ]);
}
