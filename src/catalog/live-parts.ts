import type { Adjacency, KeyTable, Snapshot, U32Column } from '../index-format/index.js';
import { hideInIndex } from './hide-in-search.js';
import type { SearchIndex } from '../index-format/search/search-index.js';
import type { DeletableType, DeletesSet } from './deletes.js';
import { bitSet } from './deletes.js';
import { LiveKeys, LiveOrder, LiveRelation, type KeyLookup, type OrdinalColumn, type Relation } from './live-lists.js';
import type { AlbumRecord, GenreRecord, PlaylistRecord } from './records.js';
import type { ViewType } from './views.js';

/** The type each stored relationship leads to, where a takedown can leave some out. */
const RELATION_TARGETS: Readonly<Record<string, DeletableType>> = {
  'song.albums': 'album',
  'song.artists': 'artist',
  'album.tracks': 'song',
  'album.artists': 'artist',
  'artist.songs': 'song',
  'artist.albums': 'album',
  'playlist.tracks': 'song',
  'station.tracks': 'song',
  'genre.songs': 'song',
};

/** The relation listing, per target, its sources: how the sources holding a taken-down target are found. */
const REVERSE: Readonly<Record<string, string>> = {
  'song.albums': 'album.tracks',
  'song.artists': 'artist.songs',
  'album.tracks': 'song.albums',
  'album.artists': 'artist.albums',
  'artist.songs': 'song.artists',
  'artist.albums': 'album.artists',
  'playlist.tracks': 'song.playlists',
};

/** The counts of the manifest a deletes set changes, by the manifest's `deletes` names. */
const COUNTED = ['songs', 'albums', 'artists', 'stations', 'files', 'lyrics'] as const;

/**
 * What the catalog serves differently under a deletes set: the lists, key probes and orders
 * without the taken-down (live-lists.ts), the counts less them, and the records whose stored
 * counts included them (an album's and a playlist's tracks, a genre's songs), with the stored
 * views of those records set aside so they are rendered from the corrected record.
 */
export class LiveParts {
  readonly counts: Readonly<Record<string, number>>;
  private readonly stored = new Map<string, Adjacency>();
  /** Per relation, its sources holding a taken-down target, one bit each (ownersOfDeleted). */
  private readonly touched = new Map<string, Uint8Array | null>();
  private genreDeleted: Map<number, number> | null = null;

  constructor(
    private readonly snapshot: Snapshot,
    private readonly deletes: DeletesSet,
    /** The catalog's relation as served (with this set's lists). */
    private readonly liveRelation: (name: string) => Relation,
  ) {
    const manifest = snapshot.manifest;
    const counts = { ...manifest.counts };
    for (const name of COUNTED) if (manifest.deletes?.[name] && counts[name] !== undefined) counts[name] -= manifest.deletes[name];
    this.counts = counts;
  }

  keys(name: string, stored: KeyTable): KeyLookup {
    const type = name.slice(0, name.indexOf('.'));
    return this.deletes.any(type) ? new LiveKeys(stored, this.deletes.bitsOf(type)) : stored;
  }

  relation(name: string, stored: Adjacency): Relation {
    const target = RELATION_TARGETS[name];
    if (!target || !this.deletes.any(target)) return stored;
    return new LiveRelation(stored, this.deletes.bitsOf(target), (source) => this.holdsDeleted(name, source));
  }

  order(type: DeletableType, stored: U32Column | OrdinalColumn, rank: Uint32Array): OrdinalColumn {
    const deleted = this.deletes.list(type);
    const positions = new Uint32Array(deleted.length);
    for (let i = 0; i < deleted.length; i++) positions[i] = rank[deleted[i]];
    positions.sort();
    return new LiveOrder(stored, positions, this.deletes.bitsOf(type));
  }

  album(ordinal: number, record: AlbumRecord): AlbumRecord {
    const live = this.liveTracks('album.tracks', ordinal, record.trackCount);
    return live === record.trackCount ? record : { ...record, trackCount: live };
  }

  playlist(ordinal: number, record: PlaylistRecord): PlaylistRecord {
    const live = this.liveTracks('playlist.tracks', ordinal, record.trackCount);
    return live === record.trackCount ? record : { ...record, trackCount: live };
  }

  genre(ordinal: number, record: GenreRecord): GenreRecord {
    const deleted = (this.genreDeleted ??= this.countGenreDeletes()).get(ordinal) ?? 0;
    return deleted === 0 ? record : { ...record, songCount: record.songCount - deleted };
  }

  /** Marks the taken-down documents of a search index (by rank) for searches to leave out. */
  hideInSearch(index: SearchIndex, type: DeletableType): void {
    hideInIndex(index, (ordinal) => this.deletes.has(type, ordinal));
  }

  /** The track count in service of an album or playlist whose stored view counted a taken-down track; else null. */
  viewCount(type: ViewType, ordinal: number): number | null {
    if (type !== 'album' && type !== 'playlist') return null;
    return this.changedTrackCount(type === 'album' ? 'album.tracks' : 'playlist.tracks', ordinal);
  }

  private storedRelation(name: string): Adjacency {
    let adj = this.stored.get(name);
    if (!adj) this.stored.set(name, (adj = this.snapshot.arrays('relations').adjacency(name)));
    return adj;
  }

  private hasDeletedTrack(relation: 'album.tracks' | 'playlist.tracks', ordinal: number): boolean {
    if (!this.deletes.any('song')) return false;
    if (this.ownersOf(relation) !== null) return this.holdsDeleted(relation, ordinal);
    const bits = this.deletes.bitsOf('song');
    const tracks = this.storedRelation(relation).targetsOf(ordinal);
    for (let i = 0; i < tracks.length; i++) if (bitSet(bits, tracks[i])) return true;
    return false;
  }

  /** Whether a source of the relation may hold a taken-down target: true when the snapshot cannot tell (no reverse relation). */
  private holdsDeleted(relation: string, source: number): boolean {
    const owners = this.ownersOf(relation);
    return owners === null || bitSet(owners, source);
  }

  private ownersOf(relation: string): Uint8Array | null {
    let owners = this.touched.get(relation);
    if (owners === undefined) this.touched.set(relation, (owners = this.ownersOfDeleted(relation)));
    return owners;
  }

  /**
   * The sources of a relation holding a taken-down target (the albums holding a taken-down song,
   * the artists credited on one...), found once through the targets' own relation (REVERSE), so
   * that serving the others reads their stored lists as they are; null when the snapshot lacks
   * that relation (one compiled before `song.playlists`).
   */
  private ownersOfDeleted(relation: string): Uint8Array | null {
    const reverse = REVERSE[relation];
    if (!reverse || !this.snapshot.arrays('relations').has(`${reverse}.offsets`)) return null;
    const owners = new Uint8Array((this.storedRelation(relation).sources + 7) >>> 3);
    const ownersOfTarget = this.storedRelation(reverse);
    for (const target of this.deletes.list(RELATION_TARGETS[relation]))
      for (const owner of ownersOfTarget.targetsOf(target)) owners[owner >>> 3] |= 1 << (owner & 7);
    return owners;
  }

  private liveTracks(relation: 'album.tracks' | 'playlist.tracks', ordinal: number, storedCount: number): number {
    return this.changedTrackCount(relation, ordinal) ?? storedCount;
  }

  /** The tracks in service of an album or playlist holding a taken-down one; null when it holds none. */
  private changedTrackCount(relation: 'album.tracks' | 'playlist.tracks', ordinal: number): number | null {
    return this.hasDeletedTrack(relation, ordinal) ? this.liveRelation(relation).count(ordinal) : null;
  }

  /** Taken-down songs per genre, counted once over the genres' song lists. */
  private countGenreDeletes(): Map<number, number> {
    const out = new Map<number, number>();
    if (!this.deletes.any('song')) return out;
    const bits = this.deletes.bitsOf('song');
    const genreSongs = this.storedRelation('genre.songs');
    for (let g = 0; g < genreSongs.sources; g++) {
      const songs = genreSongs.targetsOf(g);
      let n = 0;
      for (let i = 0; i < songs.length; i++) if (bitSet(bits, songs[i])) n++;
      if (n > 0) out.set(g, n);
    }
    return out;
  }
}

/** Per term, the documents of `ranks` holding it (in the name or the artists, once each). */
