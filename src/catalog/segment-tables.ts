import type { RecordTable, Snapshot } from '../index-format/index.js';
import type { PlacedRecord } from '../index-format/tables/placed-record.js';
import type { KeyLookup, Relation } from './live-lists.js';
import { compareLocalIds } from './local-id-order.js';
import type { SegmentMap, SegmentType } from './segments.js';

/**
 * Tables read across the segments of a segmented snapshot (docs/segments.md): each read asks the
 * segment map which segment holds the resource and reads that segment's table. Ordinary
 * snapshots never meet these classes.
 */

/** What the catalog and its callers read from a record table. */
export type RecordReader = Pick<RecordTable, 'count' | 'get' | 'raw' | 'touch' | 'keepRecent'>;

/** A record table whose rows live in the segment that holds each resource. */
export class SegmentedRecords implements RecordReader {
  readonly count: number;
  private readonly tables: (RecordTable | null)[];

  constructor(
    snapshot: Snapshot,
    name: string,
    private readonly segments: SegmentMap,
    private readonly type: SegmentType,
  ) {
    this.count = segments.size(type);
    this.tables = Array.from({ length: segments.count }, (_, s) => (s === 0 || snapshot.hasRecords(name, s) ? snapshot.records(name, s) : null));
  }

  /** Whether every segment's table is compressed (RecordTable.compressed). */
  get compressed(): boolean {
    return this.tables.every((t) => t === null || t.compressed);
  }

  /** Whether a segment's table checks for cold pages (RecordTable.checksCold). */
  get checksCold(): boolean {
    return this.tables.some((t) => t?.checksCold);
  }

  /** The table and row that hold the resource. */
  private at(ordinal: number): { table: RecordTable; row: number } {
    const segment = this.segments.segmentOf(this.type, ordinal);
    const table = this.tables[segment];
    const row = this.segments.localOf(this.type, segment, ordinal);
    if (!table || row < 0) throw new RangeError(`${this.type} ${ordinal} is not held by segment ${segment}`);
    return { table, row };
  }

  get<T = Record<string, unknown>>(ordinal: number): T {
    const { table, row } = this.at(ordinal);
    return table.get<T>(row);
  }

  raw(ordinal: number): Buffer {
    const { table, row } = this.at(ordinal);
    return table.raw(row);
  }

  /** The stored bytes, or a placed record where that segment's table is compressed. */
  view(ordinal: number): Buffer | PlacedRecord {
    const { table, row } = this.at(ordinal);
    return table.compressed ? table.place(row) : table.raw(row);
  }

  touch(ordinals: ArrayLike<number>): number {
    let touched = 0;
    for (let s = 0; s < this.tables.length; s++) {
      const rows: number[] = [];
      for (let i = 0; i < ordinals.length; i++) {
        if (this.segments.segmentOf(this.type, ordinals[i]) === s) rows.push(this.segments.localOf(this.type, s, ordinals[i]));
      }
      if (rows.length > 0) touched += this.tables[s]?.touch(rows) ?? 0;
    }
    return touched;
  }

  keepRecent(): void {
    for (const table of this.tables) table?.keepRecent();
  }
}

/**
 * Key probes across segments, newest first: a hit on ordinal X in segment s counts only when s
 * holds X's newest version and X is in service (a later version answers for X with its own keys).
 * Several values of one key (an ISRC two songs share) are the union, by ordinal.
 */
export class SegmentedKeys implements KeyLookup {
  constructor(
    private readonly tables: (KeyLookup | null)[],
    private readonly segments: SegmentMap,
    private readonly type: SegmentType,
    /** The local id of a resource: values from several segments are merged in local-id order, as a compile lists them. */
    private readonly idOf: (ordinal: number) => string,
  ) {}

  get(key: string): number {
    for (let s = this.tables.length - 1; s >= 0; s--) {
      const ordinal = this.tables[s]?.get(key) ?? -1;
      if (ordinal >= 0 && this.segments.answers(this.type, ordinal, s)) return ordinal;
    }
    return -1;
  }

  getAll(key: string): readonly number[] {
    const out: number[] = [];
    let segmentsFound = 0;
    for (let s = 0; s < this.tables.length; s++) {
      const before = out.length;
      for (const ordinal of this.tables[s]?.getAll(key) ?? []) if (this.segments.answers(this.type, ordinal, s)) out.push(ordinal);
      if (out.length > before) segmentsFound++;
    }
    return segmentsFound > 1 ? this.byLocalId(out) : out;
  }

  /** Values found in several segments, each segment's in local-id order: all of them in that order. */
  private byLocalId(found: number[]): number[] {
    const ids = new Map(found.map((o) => [o, this.idOf(o)]));
    return found.sort((a, b) => compareLocalIds(ids.get(a)!, ids.get(b)!));
  }

  touch(keys: readonly string[]): number {
    let touched = 0;
    for (const table of this.tables) touched += table?.touch(keys) ?? 0;
    return touched;
  }
}

/** A relation whose list of each source is the one the segment holding the source stores. */
export class SegmentedRelation implements Relation {
  constructor(
    private readonly lists: (Relation | null)[],
    private readonly segments: SegmentMap,
    private readonly type: SegmentType,
  ) {}

  get sources(): number {
    return this.segments.size(this.type);
  }

  count(source: number): number {
    const segment = this.segments.segmentOf(this.type, source);
    const list = this.lists[segment];
    const row = this.segments.localOf(this.type, segment, source);
    return list && row >= 0 ? list.count(row) : 0;
  }

  targetsOf(source: number, from?: number, to?: number): Uint32Array {
    const segment = this.segments.segmentOf(this.type, source);
    const list = this.lists[segment];
    const row = this.segments.localOf(this.type, segment, source);
    return list && row >= 0 ? list.targetsOf(row, from, to) : new Uint32Array(0);
  }
}
