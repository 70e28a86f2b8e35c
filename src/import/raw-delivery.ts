import type { RawRow } from '../raw/csv-writer.js';
import type { RawFileName } from '../raw/schema.js';

/**
 * How rows of each raw file are told apart when a later delivery says them again:
 * - `entity`: by `id`; the later row replaces the earlier in place;
 * - `owned`: a list its owner's delivery carries whole (an album's or a song's credits, a
 *   playlist's or a station's tracks): when the owner is delivered again, its list is replaced;
 * - `keyed`: by a natural key; the later row replaces the earlier in place.
 */
export type RowRule =
  | { readonly kind: 'entity' }
  | { readonly kind: 'owned'; readonly owner: string; readonly ownerFile: RawFileName }
  | { readonly kind: 'keyed'; readonly key: readonly string[] };

export const ROW_RULES: Readonly<Record<RawFileName, RowRule>> = {
  artists: { kind: 'entity' },
  albums: { kind: 'entity' },
  songs: { kind: 'entity' },
  playlists: { kind: 'entity' },
  files: { kind: 'entity' },
  stations: { kind: 'entity' },
  explore_groups: { kind: 'entity' },
  album_artists: { kind: 'owned', owner: 'album_id', ownerFile: 'albums' },
  song_artists: { kind: 'owned', owner: 'song_id', ownerFile: 'songs' },
  playlist_tracks: { kind: 'owned', owner: 'playlist_id', ownerFile: 'playlists' },
  station_tracks: { kind: 'owned', owner: 'station_id', ownerFile: 'stations' },
  album_tracks: { kind: 'keyed', key: ['album_id', 'song_id'] },
  lyrics: { kind: 'keyed', key: ['song_id', 'language'] },
  explore_items: { kind: 'keyed', key: ['group_id', 'resource_id'] },
};

/** The key a row is told apart by (entity: its id; owned: its owner; keyed: its natural key). */
export function rowKey(rule: RowRule, get: (column: string) => string): string {
  if (rule.kind === 'entity') return get('id');
  if (rule.kind === 'owned') return get(rule.owner);
  return rule.key.map(get).join('\u0000');
}

const text = (row: RawRow, column: string): string => {
  const value = row[column];
  return value === null || value === undefined ? '' : String(value);
};

/**
 * What one import delivers to a raw file, in memory (the CSV importers' sources are small): rows
 * by key in first-delivered order, the later delivery of a key replacing the earlier (owned
 * lists: the owner's later delivery starting its list over).
 */
export class FileDelivery {
  /** entity and keyed rows by key; owned lists by owner. */
  readonly rows = new Map<string, RawRow>();
  readonly lists = new Map<string, RawRow[]>();
  delivered = 0;

  constructor(readonly rule: RowRule) {}

  put(row: RawRow): void {
    this.delivered++;
    if (this.rule.kind === 'owned') {
      const owner = text(row, this.rule.owner);
      const list = this.lists.get(owner);
      if (list) list.push(row);
      else this.lists.set(owner, [row]);
    } else
      this.rows.set(
        rowKey(this.rule, (c) => text(row, c)),
        row,
      );
  }

  /** The owner was delivered again: its list starts over (empty until its rows come). */
  restartList(owner: string): void {
    this.lists.set(owner, []);
  }
}
