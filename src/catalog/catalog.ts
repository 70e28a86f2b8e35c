import { FormatError, Snapshot } from '../index-format/index.js';
import { SearchIndex } from '../index-format/search/search-index.js';
import { SEARCH_INDEX_INFO } from '../index-format/search/search-text.js';
import { parseCatalogId, type CatalogType } from './catalog-ids.js';
import { DeletesSet } from './deletes.js';
import { LiveParts } from './live-parts.js';
import type { KeyLookup, OrdinalColumn, Relation } from './live-lists.js';
import { SegmentedRecords, type RecordReader } from './segment-tables.js';
import { SEGMENT_TYPES, SegmentMap, type SegmentType } from './segments.js';
import { SegmentedParts, type SegmentSearch } from './segment-parts.js';
import { ViewStore } from './views.js';
import type { AlbumRecord, ArtistRecord, FileRecord, GenreRecord, LyricsRecord, PlaylistRecord, SongRecord, StationRecord } from './records.js';

export type ResourceType = CatalogType | 'playlist' | 'station';

/** Relationship name (as the interfaces spell it) -> adjacency in the snapshot, per source type. */
export const RELATIONS = {
  song: { albums: 'song.albums', artists: 'song.artists' },
  album: { tracks: 'album.tracks', artists: 'album.artists' },
  artist: { tracks: 'artist.songs', albums: 'artist.albums' },
  playlist: { tracks: 'playlist.tracks' },
  station: { tracks: 'station.tracks' },
} as const satisfies Record<ResourceType, Record<string, string>>;

/** The resource type each relationship leads to. */
export const RELATION_TARGET: Record<string, ResourceType> = { albums: 'album', artists: 'artist', tracks: 'song' };

export interface CatalogOptions {
  readonly searchable?: boolean;
  readonly views?: boolean;
  /**
   * Keep the last few records of each table decoded and hand the same objects out again
   * (RecordTable.keepRecent): for the compile's views, which read each record once per interface.
   */
  readonly keepRecent?: boolean;
}

/**
 * Read access to one snapshot in the terms the interfaces use: resolve ids (local or catalog),
 * decode records, walk relationships and precomputed orders. Everything is a key probe or a
 * slice of mapped memory; nothing here scans the catalog.
 */
export class Catalog {
  readonly buildId: string;
  private readonly tables = new Map<string, RecordReader>();
  private readonly keepRecent: boolean;
  private readonly keyTables = new Map<string, KeyLookup>();
  private readonly adjacencies = new Map<string, Relation>();
  private readonly columns = new Map<string, OrdinalColumn>();
  /** The snapshot's deletes set (omm takedown), or null. */
  readonly deletes: DeletesSet | null;
  /** The lists, keys and records as served under the deletes set (null without one). */
  private readonly live: LiveParts | null;
  private readonly rankArrays = new Map<string, Uint32Array>();
  /** A segmented snapshot's segments (docs/segments.md), or null. */
  readonly segments: SegmentMap | null;
  /** Its keys, relations and orders read across them, or null. */
  private readonly segmented: SegmentedParts | null;

  private readonly searchIndexes = new Map<string, SearchIndex>();
  /** Pre-rendered default views; null when the snapshot has none this version serves, or `views: false`. */
  readonly views: ViewStore | null;

  /**
   * `searchable: false` opens a snapshot whose search index this version cannot read (one from
   * an older compiler) for record access only: `omm diff` compares such snapshots.
   * `views: false` renders every response, ignoring the snapshot's pre-rendered views.
   */
  constructor(
    readonly snapshot: Snapshot,
    { searchable = true, views = true, keepRecent = false }: CatalogOptions = {},
  ) {
    this.buildId = snapshot.buildId;
    this.keepRecent = keepRecent;
    this.segments = SegmentMap.of(snapshot);
    this.segmented = this.segments ? new SegmentedParts(snapshot, this.segments, (type, o) => this.records(type).get<{ id: string }>(o).id) : null;
    this.deletes = DeletesSet.of(snapshot);
    if (this.segments && this.deletes) refuseSegments(snapshot, 'a takedown over its segments');
    this.live = this.deletes ? new LiveParts(snapshot, this.deletes, (name) => this.relation(name)) : null;
    const liveCount = this.live ? (type: 'song' | 'album' | 'artist' | 'playlist', ordinal: number) => this.live!.viewCount(type, ordinal) : null;
    this.views = views ? ViewStore.of(snapshot, liveCount, this.segments) : null;
    const search = snapshot.manifest.search ?? {};
    if (
      searchable &&
      (search.format !== SEARCH_INDEX_INFO.format || search.version !== SEARCH_INDEX_INFO.version || search.textVersion !== SEARCH_INDEX_INFO.textVersion)
    ) {
      throw new FormatError(
        'E_SNAPSHOT_MISMATCH',
        `search index ${JSON.stringify(search)} was built for another server version (this one reads ${JSON.stringify(SEARCH_INDEX_INFO)}); recompile the snapshot`,
        snapshot.dir,
      );
    }
  }

  static open(path: string, options: CatalogOptions = {}): Catalog {
    return new Catalog(Snapshot.open(path), options);
  }

  /** The manifest's counts, less what the deletes set takes out. */
  get counts(): Snapshot['manifest']['counts'] {
    return this.live ? this.live.counts : this.snapshot.manifest.counts;
  }

  /** Resources of a type in service. */
  count(type: ResourceType): number {
    const stored = this.segments ? this.segments.served(type) : this.records(type).count;
    return this.deletes?.any(type) ? stored - this.deletes.count(type) : stored;
  }

  /** Whether a resource is taken down by the deletes set. */
  isDeleted(type: ResourceType, ordinal: number): boolean {
    if (this.segments?.removed(type, ordinal)) return true;
    return this.deletes !== null && this.deletes.any(type) && this.deletes.has(type, ordinal);
  }

  records(type: SegmentType): RecordReader {
    const name = SEGMENT_TYPES[type];
    let table = this.tables.get(name);
    if (!table) {
      table = this.segments ? new SegmentedRecords(this.snapshot, name, this.segments, type) : this.snapshot.records(name);
      this.tables.set(name, table);
      if (this.keepRecent) table.keepRecent();
    }
    return table;
  }

  /** Key probes (`song.isrc`, `album.upc`, `artist.id`, ...); the taken-down are not found. */
  keys(name: string): KeyLookup {
    let table = this.keyTables.get(name);
    if (!table) {
      // A takedown over segments is refused when the catalog opens.
      const stored = this.segments ? null : this.snapshot.keys(name);
      table = stored ? (this.live ? this.live.keys(name, stored) : stored) : this.segmented!.keys(name);
      this.keyTables.set(name, table);
    }
    return table;
  }

  /** Whether the snapshot has a relation (snapshots compiled before `song.playlists` lack it). */
  hasRelation(name: string): boolean {
    return this.adjacencies.has(name) || this.snapshot.arrays('relations').has(`${name}.offsets`);
  }

  /** A relationship's targets in stored order, the taken-down left out. */
  relation(name: string): Relation {
    let adj = this.adjacencies.get(name);
    if (!adj) {
      const stored = this.segments ? null : this.snapshot.arrays('relations').adjacency(name);
      adj = stored ? (this.live ? this.live.relation(name, stored) : stored) : this.segmented!.relation(name);
      this.adjacencies.set(name, adj);
    }
    return adj;
  }

  /** Ordinals of a type in a precomputed order (`name`, `-dateAdded`, `popularity`, ...), the taken-down left out. */
  order(type: Exclude<ResourceType, 'station'>, sort: string): OrdinalColumn {
    if (this.segmented) return this.segmented.order(type, sort);
    const stored = this.column(`${SEGMENT_TYPES[type]}.orders`, `order.${sort}`);
    if (!this.live || !this.deletes?.any(type)) return stored;
    const key = `${SEGMENT_TYPES[type]}.orders/live.${sort}`;
    let col = this.columns.get(key);
    if (!col) this.columns.set(key, (col = this.live.order(type, stored, this.rank(type, sort))));
    return col;
  }

  /**
   * Position of each ordinal in a precomputed order, as one array kept for the snapshot's life
   * (a view of mapped memory; a copy in the positioned-read fallback; made from the merged order
   * over segments).
   */
  rank(type: Exclude<ResourceType, 'station'>, sort: string): Uint32Array {
    const key = `${type}/${sort}`;
    let ranks = this.rankArrays.get(key);
    if (!ranks) {
      if (this.segmented) ranks = this.segmented.order(type, sort).ranks(this.segmented.segments.size(type));
      else {
        const column = this.column(`${SEGMENT_TYPES[type]}.orders`, `rank.${sort}`);
        ranks = column.slice(0, column.length);
      }
      this.rankArrays.set(key, ranks);
    }
    return ranks;
  }

  /** A base array (of segment 0 in a segmented snapshot). */
  private column(table: string, name: string): OrdinalColumn {
    const key = `${table}/${name}`;
    let col = this.columns.get(key);
    if (!col) this.columns.set(key, (col = this.snapshot.arrays(table).column(name)));
    return col;
  }

  /** Ordinal of a resource by local id or (songs, albums, artists) catalog id; -1 when unknown. */
  resolve(type: ResourceType, id: string): number {
    if (id.length === 0 || id.length > 256) return -1;
    if (id.startsWith('omm:')) {
      const parsed = parseCatalogId(id);
      if (!parsed || parsed.type !== type) return -1;
      return this.keys(`${type}.omm`).get(parsed.ommId);
    }
    return this.keys(`${type}.id`).get(id);
  }

  /** Ordinal of a catalog id of any type. */
  resolveCatalogId(id: string): { type: CatalogType; ordinal: number } | null {
    const parsed = parseCatalogId(id);
    if (!parsed) return null;
    const ordinal = this.keys(`${parsed.type}.omm`).get(parsed.ommId);
    return ordinal < 0 ? null : { type: parsed.type, ordinal };
  }

  /** The search index of a type (songs, albums, artists, playlists). */
  search(type: 'song' | 'album' | 'artist' | 'playlist'): SearchIndex {
    let index = this.searchIndexes.get(type);
    if (!index) {
      if (this.segments) refuseSegments(this.snapshot, 'a single search index (a search over segments goes through searchParts)');
      const name = `search.${SEGMENT_TYPES[type]}`;
      const pages = this.snapshot.hasBlob(`${name}.first-pages`) ? this.snapshot.blob(`${name}.first-pages`) : null;
      this.searchIndexes.set(type, (index = new SearchIndex(this.snapshot.blob(name), pages)));
      if (this.live && this.deletes?.any(type)) this.live.hideInSearch(index, type);
    }
    return index;
  }

  /**
   * A segmented snapshot's search indexes of a type, one per segment holding any (segment-parts.ts),
   * for search/segmented-search.ts; null for an ordinary snapshot (search() is its one index).
   */
  searchParts(type: 'song' | 'album' | 'artist' | 'playlist'): SegmentSearch[] | null {
    return this.segmented ? this.segmented.searchParts(type, this.rank(type, 'popularity')) : null;
  }

  song(ordinal: number): SongRecord {
    return this.records('song').get<SongRecord>(ordinal);
  }

  album(ordinal: number): AlbumRecord {
    const record = this.records('album').get<AlbumRecord>(ordinal);
    return this.live ? this.live.album(ordinal, record) : record;
  }

  artist(ordinal: number): ArtistRecord {
    return this.records('artist').get<ArtistRecord>(ordinal);
  }

  playlist(ordinal: number): PlaylistRecord {
    const record = this.records('playlist').get<PlaylistRecord>(ordinal);
    return this.live ? this.live.playlist(ordinal, record) : record;
  }

  station(ordinal: number): StationRecord {
    return this.records('station').get<StationRecord>(ordinal);
  }

  file(ordinal: number): FileRecord {
    return this.records('file').get<FileRecord>(ordinal);
  }

  lyrics(ordinal: number): LyricsRecord {
    return this.records('lyrics').get<LyricsRecord>(ordinal);
  }

  genre(ordinal: number): GenreRecord {
    const record = this.records('genre').get<GenreRecord>(ordinal);
    return this.live ? this.live.genre(ordinal, record) : record;
  }

  close(): void {
    this.snapshot.close();
  }
}

/** A segmented snapshot asked for what this version does not yet read across segments (docs/segments.md). */
function refuseSegments(snapshot: Snapshot, what: string): never {
  throw new FormatError(
    'E_SNAPSHOT_MISMATCH',
    `snapshot ${snapshot.buildId} has ${snapshot.segmentCount} segments, and this version does not yet read ${what} (docs/segments.md)`,
    snapshot.dir,
  );
}
