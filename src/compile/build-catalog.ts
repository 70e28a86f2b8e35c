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
import type { BuildContext, BuildSettings } from './write/build-context.js';
import { planExplore } from './write/plan-explore.js';
import type { SongRecordsJob } from './write/song-records.js';

export interface DerivedBuild {
  readonly context: BuildContext;
  /** The songs table's job, for a worker (song-records.ts). */
  readonly songRecords: SongRecordsJob;
  readonly orderFiles: { songs: EntityOrderFiles; albums: EntityOrderFiles; artists: EntityOrderFiles; playlists: EntityOrderFiles };
  readonly explore: ExploreGroup[];
}

export interface DeriveOptions extends BuildSettings {
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

/** The entities' columns, opened once for every phase. */
interface OpenEntities {
  readonly songs: EntityColumns;
  readonly albums: EntityColumns;
  readonly artists: EntityColumns;
  readonly playlists: EntityColumns;
  readonly customStations: EntityColumns;
}

type Orders = BuildContext['orders'];

/**
 * Everything between the first pass and the writers, on column files: relations grouped by
 * owner, each entity's orders, the relations ordered by those orders, stations and the explore
 * feed. Each step is one or a few sorts within the budget.
 */
export async function deriveBuild(v: ValidatedCatalog, spill: SpillDir, budget: MemoryBudget, options: DeriveOptions): Promise<DerivedBuild> {
  // The songs' orders are sorting on a worker meanwhile (a quarter of the budget's room): this
  // thread sorts within half until the search build takes the other half.
  const half = budget.share(0.5);
  const raw = groupRawRelations(v, spill, half);
  const entities: OpenEntities = {
    songs: openEntity(v.entities.songs),
    albums: openEntity(v.entities.albums),
    artists: openEntity(v.entities.artists),
    playlists: openEntity(v.entities.playlists),
    customStations: openEntity(v.entities.stations),
  };
  // The popularity orders first (all the search index needs), then the search build starts
  // beside the rest; from then on this thread sorts within half of the budget's room.
  const started = startPopularityOrders(entities, spill, half);
  const songOrders = await options.songOrders;
  options.onSearchInputs?.(searchInputs(v, raw, songOrders, started, options.buildId, spill));
  const rest = options.onSearchInputs ? half : budget;
  const finish = (s: StartedEntityOrders, label: string) => finishEntityOrders(s, spill, rest.sorterBytes(1), { label });
  const orderFiles = {
    songs: addReleaseOrders(songOrders, entities.songs.count, mapF64Column(raw.songReleaseKey), spill, rest.sorterBytes(1), { label: 'songs' }),
    albums: finish(started.albums, 'albums'),
    artists: finish(started.artists, 'artists'),
    playlists: finish(started.playlists, 'playlists'),
  };
  const orders: Orders = {
    songs: mapOrders(orderFiles.songs),
    albums: mapOrders(orderFiles.albums),
    artists: mapOrders(orderFiles.artists),
    playlists: mapOrders(orderFiles.playlists),
  };
  const shape = deriveShape(v, raw, entities, orders, spill, rest);
  const context: BuildContext = {
    ...options,
    ...entities,
    genres: v.genres,
    inherit: shape.inherit,
    primaryTrack: mapU32Column(raw.primaryTrack),
    trackDisc: mapU32Column(v.edges.albumTracks.disc),
    trackNumber: mapU32Column(v.edges.albumTracks.track),
    lyricsLanguages: StringColumn.open(v.edges.lyrics.languages),
    artistGenres: shape.artistGenres,
    relations: shape.relations,
    stations: shape.stations,
    orders,
  };
  return { context, songRecords: songRecordsJob(v, raw, shape.relationFiles, options), orderFiles, explore: shape.explore };
}

/** Albums', artists' and playlists' orders up to popularity, each within one sorter's share of `half`. */
function startPopularityOrders(entities: OpenEntities, spill: SpillDir, half: MemoryBudget) {
  const inputsOf = (cols: EntityColumns, releaseDate?: Float64Array) => ({
    count: cols.count,
    ids: cols.ids,
    names: cols.names,
    dateAdded: cols.dateAdded,
    popularity: cols.popularity,
    releaseDate,
  });
  return {
    albums: startEntityOrders(inputsOf(entities.albums, entities.albums.releaseKey), spill, half.sorterBytes(1), { label: 'albums' }),
    artists: startEntityOrders(inputsOf(entities.artists), spill, half.sorterBytes(1), { label: 'artists' }),
    playlists: startEntityOrders(inputsOf(entities.playlists), spill, half.sorterBytes(1), { label: 'playlists' }),
  };
}

/** What the search build reads, for a staging directory and a memory share: names, popularity orders and credits. */
function searchInputs(
  v: ValidatedCatalog,
  raw: RawRelations,
  songOrders: OrdersBeforeRelease,
  started: ReturnType<typeof startPopularityOrders>,
  buildId: string,
  spill: SpillDir,
): SearchInputs {
  const credits = (adj: AdjacencyFiles) => ({ offsets: adj.offsets, targets: adj.targets, artistNames: v.entities.artists.names });
  return (outDir, budgetBytes) => ({
    outDir,
    buildId,
    spillDir: spill.path,
    budgetBytes,
    documents: [
      { type: 'song', ordinals: songOrders.popularity, names: v.entities.songs.names, artists: credits(raw.songArtists) },
      { type: 'album', ordinals: started.albums.popularity, names: v.entities.albums.names, artists: credits(raw.albumArtists) },
      { type: 'artist', ordinals: started.artists.popularity, names: v.entities.artists.names },
      { type: 'playlist', ordinals: started.playlists.popularity, names: v.entities.playlists.names },
    ],
  });
}

/** The relations ordered by the entities' orders, the songs' inherited values, stations and the explore feed. */
function deriveShape(v: ValidatedCatalog, raw: RawRelations, entities: OpenEntities, orders: Orders, spill: SpillDir, rest: MemoryBudget) {
  const { songs, albums, artists, customStations } = entities;
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
  return { inherit, artistGenres, stations, relationFiles, relations, explore };
}

/** The songs table's job for its worker: column files only. */
function songRecordsJob(v: ValidatedCatalog, raw: RawRelations, relationFiles: Map<string, AdjacencyFiles>, options: DeriveOptions): SongRecordsJob {
  return {
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
