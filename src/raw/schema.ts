/**
 * The raw catalog format: which CSV files a raw directory holds and which columns each may have.
 * docs/raw-format.md is the human contract; this table is the machine one. Compile validates
 * against it, the importers and the generator write through it.
 */

export type ColumnKind =
  | 'id' // local id: 1..64 chars of [A-Za-z0-9._~-]
  | 'ref' // a local id of another file's row
  | 'text' // any non-empty UTF-8 text (trimmed)
  | 'longtext' // any text, kept as is (lyrics, TTML)
  | 'int' // non-negative integer
  | 'bool' // true/false/1/0/yes/no
  | 'date' // YYYY, YYYY-MM or YYYY-MM-DD (a real calendar date)
  | 'datetime' // YYYY-MM-DD or an RFC 3339 timestamp
  | 'isrc' // CC-XXX-YY-NNNNN, hyphens optional, any case
  | 'upc' // 12-digit UPC-A or 13-digit EAN, valid GS1 check digit
  | 'url' // absolute http(s) URL
  | 'list' // |-separated values, each trimmed; empty values dropped
  | 'lang' // BCP 47 language tag
  | 'omm_id' // 16 chars [0-9a-z]
  | 'type'; // a resource type (explore groups)

export interface ColumnSpec {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly required?: boolean;
  /** For ref columns: the raw file whose ids it names. */
  readonly refersTo?: RawFileName;
}

export interface RawFileSpec {
  readonly file: RawFileName;
  readonly required: boolean;
  readonly columns: readonly ColumnSpec[];
}

export type RawFileName =
  | 'artists'
  | 'albums'
  | 'album_artists'
  | 'songs'
  | 'song_artists'
  | 'album_tracks'
  | 'files'
  | 'lyrics'
  | 'playlists'
  | 'playlist_tracks'
  | 'stations'
  | 'station_tracks'
  | 'explore_groups'
  | 'explore_items';

const c = (name: string, kind: ColumnKind, extra: Partial<ColumnSpec> = {}): ColumnSpec => ({
  name,
  kind,
  ...extra,
});
const req = (name: string, kind: ColumnKind, extra: Partial<ColumnSpec> = {}): ColumnSpec => c(name, kind, { ...extra, required: true });
const ref = (name: string, refersTo: RawFileName): ColumnSpec => c(name, 'ref', { required: true, refersTo });

/** Every raw file, in the order the compiler reads them (a file's refs point to earlier files). */
export const RAW_FILES: readonly RawFileSpec[] = [
  {
    file: 'artists',
    required: true,
    columns: [
      req('id', 'id'),
      req('name', 'text'),
      c('omm_id', 'omm_id'),
      c('artwork_url', 'url'),
      c('genres', 'list'),
      c('popularity', 'int'),
      c('date_added', 'datetime'),
    ],
  },
  {
    file: 'albums',
    required: true,
    columns: [
      req('id', 'id'),
      req('name', 'text'),
      c('omm_id', 'omm_id'),
      c('upc', 'upc'),
      c('label', 'text'),
      c('release_date', 'date'),
      c('artwork_url', 'url'),
      c('genres', 'list'),
      c('popularity', 'int'),
      c('date_added', 'datetime'),
      c('artist_name', 'text'),
    ],
  },
  {
    file: 'album_artists',
    required: false,
    columns: [ref('album_id', 'albums'), ref('artist_id', 'artists'), c('position', 'int')],
  },
  {
    file: 'songs',
    required: true,
    columns: [
      req('id', 'id'),
      req('name', 'text'),
      c('omm_id', 'omm_id'),
      c('isrc', 'isrc'),
      c('duration_ms', 'int'),
      c('genres', 'list'),
      c('release_date', 'date'),
      c('artwork_url', 'url'),
      c('popularity', 'int'),
      c('date_added', 'datetime'),
      c('artist_name', 'text'),
    ],
  },
  {
    file: 'song_artists',
    required: false,
    columns: [ref('song_id', 'songs'), ref('artist_id', 'artists'), c('position', 'int')],
  },
  {
    file: 'album_tracks',
    required: false,
    columns: [ref('album_id', 'albums'), ref('song_id', 'songs'), c('disc_number', 'int'), req('track_number', 'int')],
  },
  {
    file: 'files',
    required: false,
    columns: [
      req('id', 'id'),
      ref('song_id', 'songs'),
      req('mime_type', 'text'),
      c('codec', 'text'),
      c('lossless', 'bool'),
      c('bitrate_kbps', 'int'),
      c('sample_rate_hz', 'int'),
      c('channels', 'int'),
      c('size_bytes', 'int'),
      c('duration_ms', 'int'),
      c('stream_url', 'url'),
      c('download_url', 'url'),
      c('preferred', 'bool'),
    ],
  },
  {
    file: 'lyrics',
    required: false,
    columns: [ref('song_id', 'songs'), req('language', 'lang'), req('text', 'longtext'), c('ttml', 'longtext')],
  },
  {
    file: 'playlists',
    required: false,
    columns: [
      req('id', 'id'),
      req('name', 'text'),
      c('curator_name', 'text'),
      c('description', 'text'),
      c('artwork_url', 'url'),
      c('genres', 'list'),
      c('popularity', 'int'),
      c('date_added', 'datetime'),
    ],
  },
  {
    file: 'playlist_tracks',
    required: false,
    columns: [ref('playlist_id', 'playlists'), ref('song_id', 'songs'), c('position', 'int')],
  },
  {
    file: 'stations',
    required: false,
    columns: [req('id', 'id'), req('name', 'text'), c('description', 'text'), c('artwork_url', 'url')],
  },
  {
    file: 'station_tracks',
    required: false,
    columns: [ref('station_id', 'stations'), ref('song_id', 'songs'), c('position', 'int')],
  },
  {
    file: 'explore_groups',
    required: false,
    columns: [req('id', 'id'), req('title', 'text'), req('type', 'type'), c('position', 'int')],
  },
  {
    file: 'explore_items',
    required: false,
    // resource_id names a row of the file the group's type points to; checked by the compiler.
    columns: [ref('group_id', 'explore_groups'), req('resource_id', 'id'), c('position', 'int')],
  },
];

export const RAW_FILE_BY_NAME: ReadonlyMap<RawFileName, RawFileSpec> = new Map(RAW_FILES.map((f) => [f.file, f]));

/** Column names of a raw file, in the documented order (the order writers use). */
export function columnsOf(file: RawFileName): string[] {
  const spec = RAW_FILE_BY_NAME.get(file);
  if (!spec) throw new Error(`unknown raw file ${file}`);
  return spec.columns.map((col) => col.name);
}

/** Resource types an explore group may hold. */
export const EXPLORE_TYPES = ['song', 'album', 'artist', 'playlist', 'station'] as const;

/** The separator of `list` cells. */
export const LIST_SEPARATOR = '|';
