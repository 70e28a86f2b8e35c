/**
 * The entity files, and the reference columns that point at each. A reference is resolved by
 * sorting it with the ids it may name: records (id hash, kind << 29 | row), where kind 0 is the
 * entity's own row and kind k its k-th referring column below, so each id's definitions come
 * first in its group, then the rows that name it.
 */
export type EntityName = 'artists' | 'albums' | 'songs' | 'playlists' | 'stations';
export const ENTITY_NAMES: readonly EntityName[] = ['artists', 'albums', 'songs', 'playlists', 'stations'];

export type RefFile = 'album_artists' | 'song_artists' | 'album_tracks' | 'files' | 'lyrics' | 'playlist_tracks' | 'station_tracks' | 'explore_items';

export interface RefColumn {
  readonly file: RefFile;
  readonly column: string;
}

export const REFERRERS: Readonly<Record<EntityName, readonly RefColumn[]>> = {
  artists: [
    { file: 'album_artists', column: 'artist_id' },
    { file: 'song_artists', column: 'artist_id' },
    { file: 'explore_items', column: 'resource_id' },
  ],
  albums: [
    { file: 'album_artists', column: 'album_id' },
    { file: 'album_tracks', column: 'album_id' },
    { file: 'explore_items', column: 'resource_id' },
  ],
  songs: [
    { file: 'song_artists', column: 'song_id' },
    { file: 'album_tracks', column: 'song_id' },
    { file: 'files', column: 'song_id' },
    { file: 'lyrics', column: 'song_id' },
    { file: 'playlist_tracks', column: 'song_id' },
    { file: 'station_tracks', column: 'song_id' },
    { file: 'explore_items', column: 'resource_id' },
  ],
  playlists: [
    { file: 'playlist_tracks', column: 'playlist_id' },
    { file: 'explore_items', column: 'resource_id' },
  ],
  stations: [
    { file: 'station_tracks', column: 'station_id' },
    { file: 'explore_items', column: 'resource_id' },
  ],
};

/** Rows per file are numbered in 29 bits; the kind takes the top 3. */
export const ROW_BITS = 29;
export const MAX_ROWS = 2 ** ROW_BITS;
export const ROW_MASK = MAX_ROWS - 1;

/** The kind of (entity, referring column): 1-based; 0 is the entity's own rows. */
export function refKind(entity: EntityName, file: RefFile, column: string): number {
  const k = REFERRERS[entity].findIndex((r) => r.file === file && r.column === column);
  if (k < 0) throw new Error(`${file}.${column} does not refer to ${entity}`);
  return k + 1;
}

/** "No row": a reference that names nothing, a song without a primary album. */
export const NONE = 0xffffffff;

/** The key of a resolved reference column: explore items name rows of every entity, one column each. */
export function refKey(file: RefFile, column: string, entity?: EntityName): string {
  return file === 'explore_items' ? `${file}.${column}@${entity}` : `${file}.${column}`;
}
