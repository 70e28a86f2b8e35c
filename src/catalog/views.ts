import type { Snapshot } from '../index-format/index.js';
import { coldReadsArmed } from '../index-format/shards/cold-reads.js';
import { PlacedRecord } from '../index-format/tables/placed-record.js';
import type { RecordTable } from '../index-format/tables/record-table.js';
import { SegmentedRecords } from './segment-tables.js';
import type { SegmentMap } from './segments.js';

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

/**
 * What a deletes set changed in a stored view: the count of tracks in service of an album or a
 * playlist holding a taken-down one, or null when the view holds as stored.
 */
export type ViewCount = (type: ViewType, ordinal: number) => number | null;

/** The key of the track count in each interface's views (the first such key in a view is the attribute's). */
const COUNT_KEYS: Record<ViewInterface, Buffer> = { v1: Buffer.from('"trackCount":'), om: Buffer.from('"track_count":') };

export class ViewStore {
  /** Per interface, per type: the table, opened on first use. */
  private readonly tables: Record<ViewInterface, Partial<Record<ViewType, RecordTable | SegmentedRecords>>> = { v1: {}, om: {} };

  private constructor(
    private readonly snapshot: Snapshot,
    private readonly liveCount: ViewCount | null,
    private readonly segments: SegmentMap | null,
  ) {}

  /** One interface's views of a type: the snapshot's table, or read across its segments. */
  private table(iface: ViewInterface, type: ViewType): RecordTable | SegmentedRecords {
    const name = viewTable(iface, type);
    return (this.tables[iface][type] ??= this.segments ? new SegmentedRecords(this.snapshot, name, this.segments, type) : this.snapshot.records(name));
  }

  /**
   * The views of a snapshot, or null when it has none this version can serve. `liveCount` gives
   * the track counts a deletes set changed: get writes them into the views that show one.
   */
  static of(snapshot: Snapshot, liveCount: ViewCount | null = null, segments: SegmentMap | null = null): ViewStore | null {
    const views = snapshot.manifest.views;
    return views && views.version === VIEWS_VERSION ? new ViewStore(snapshot, liveCount, segments) : null;
  }

  /**
   * The view: the stored bytes (zero-copy when mapped: use them before the request ends) when
   * its table is stored plain, else a StoredView that writes them when the response is made.
   */
  /** Loads ahead the stored views of a list about to be rendered (RecordTable.touch). */
  touch(iface: ViewInterface, type: ViewType, ordinals: ArrayLike<number>): void {
    const table = this.table(iface, type);
    // Plain views are read where they lie; but a request armed against cold reads asks for all
    // their pages at once rather than one round each (cold-reads.ts).
    if (table.compressed || (table.checksCold && coldReadsArmed())) table.touch(ordinals);
  }

  /** The view; one whose track count a deletes set changed is copied with the count in service. */
  get(iface: ViewInterface, type: ViewType, ordinal: number): Buffer | PlacedRecord | null {
    const table = this.table(iface, type);
    const stored = table instanceof SegmentedRecords ? table.view(ordinal) : table.compressed ? table.place(ordinal) : table.raw(ordinal);
    const count = this.liveCount?.(type, ordinal) ?? null;
    return count === null ? stored : withCount(stored, COUNT_KEYS[iface], count);
  }
}

/** A view's bytes as one buffer: as stored, or copied out of its compressed table. */
export function viewBytes(view: Buffer | PlacedRecord): Buffer {
  if (!(view instanceof PlacedRecord)) return view;
  const out = Buffer.allocUnsafe(view.length);
  view.copyTo(out, 0);
  return out;
}

/** A view's bytes with the number after `key` replaced by `count` (as they are when it shows none). */
function withCount(view: Buffer | PlacedRecord, key: Buffer, count: number): Buffer | PlacedRecord {
  const bytes = view instanceof PlacedRecord ? Buffer.allocUnsafe(view.length) : view;
  if (view instanceof PlacedRecord) view.copyTo(bytes, 0);
  const at = bytes.indexOf(key);
  if (at < 0) return bytes;
  const from = at + key.length;
  let to = from;
  while (to < bytes.length && bytes[to] >= 0x30 && bytes[to] <= 0x39) to++;
  return Buffer.concat([bytes.subarray(0, from), Buffer.from(String(count)), bytes.subarray(to)]);
}
