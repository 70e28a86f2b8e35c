import type { Snapshot } from '../index-format/index.js';
import type { PlacedRecord } from '../index-format/tables/placed-record.js';
import type { RecordTable } from '../index-format/tables/record-table.js';

/**
 * Pre-rendered views: the JSON of each song, album, artist and playlist in its default view
 * (every attribute, no include, no language), per interface, written at compile time by the
 * renderers themselves (src/compile/write-views.ts). A default-view request copies these bytes
 * instead of decoding a record and serialising it.
 *
 * The version names the renderers' output: bump it with any change to what they write for a
 * default view (test/views.test.ts holds a digest of their sources and fails until it is bumped).
 * A snapshot whose views carry another version is served by rendering, as if it had none.
 */
export const VIEWS_VERSION = '3';

export type ViewInterface = 'v1' | 'om';
export const VIEW_TYPES = ['song', 'album', 'artist', 'playlist'] as const;
export type ViewType = (typeof VIEW_TYPES)[number];

/** The record table holding one interface's views of one type (raw UTF-8 JSON per ordinal). */
export const viewTable = (iface: ViewInterface, type: ViewType): string => `view-${iface}-${type}`;

/**
 * A compressed view, found but not yet read: it decompresses straight into the response's buffer
 * when the response is written (placed-record.ts, PlacedRecord).
 */
export { PlacedRecord as StoredView } from '../index-format/tables/placed-record.js';

export class ViewStore {
  /** Per interface, per type: the table, opened on first use. */
  private readonly tables: Record<ViewInterface, Partial<Record<ViewType, RecordTable>>> = { v1: {}, om: {} };

  private constructor(
    private readonly snapshot: Snapshot,
    private readonly stale: ((type: ViewType, ordinal: number) => boolean) | null,
  ) {}

  /**
   * The views of a snapshot, or null when it has none this version can serve. `stale` names the
   * views a deletes set made wrong (a count that included a taken-down track): get answers null.
   */
  static of(snapshot: Snapshot, stale: ((type: ViewType, ordinal: number) => boolean) | null = null): ViewStore | null {
    const views = snapshot.manifest.views;
    return views && views.version === VIEWS_VERSION ? new ViewStore(snapshot, stale) : null;
  }

  /**
   * The view: the stored bytes (zero-copy when mapped: use them before the request ends) when
   * its table is stored plain, else a StoredView that writes them when the response is made.
   */
  /** Loads ahead the stored views of a list about to be rendered (RecordTable.touch). */
  touch(iface: ViewInterface, type: ViewType, ordinals: ArrayLike<number>): void {
    const table = (this.tables[iface][type] ??= this.snapshot.records(viewTable(iface, type)));
    if (table.compressed) table.touch(ordinals);
  }

  /** The view, or null when the deletes set made it stale (render the record then). */
  get(iface: ViewInterface, type: ViewType, ordinal: number): Buffer | PlacedRecord | null {
    if (this.stale?.(type, ordinal)) return null;
    const table = (this.tables[iface][type] ??= this.snapshot.records(viewTable(iface, type)));
    return table.compressed ? table.place(ordinal) : table.raw(ordinal);
  }
}
