import { SEGMENT_HELD_TABLE, SEGMENT_REMOVED_TABLE } from '../index-format/manifest.js';
import type { Snapshot } from '../index-format/index.js';
import { lowerBound } from '../index-format/u32.js';

/**
 * The one hop from one segment to the next (docs/segments.md). A segmented snapshot is a base
 * plus deltas; every resource of a type has one global ordinal for the snapshot's life, and
 * `owner` says, per global ordinal, which segment holds its newest version, and whether a delta
 * took it out of service. Every read by ordinal (record, view, relation list) asks `segmentOf`,
 * then reads that segment's table at `localOf`: the base's at the ordinal itself, a delta's at
 * the ordinal's place in the delta's held list.
 */

/** The record types a segment holds, with the record table of each. */
export const SEGMENT_TYPES = {
  song: 'songs',
  album: 'albums',
  artist: 'artists',
  playlist: 'playlists',
  station: 'stations',
  genre: 'genres',
  file: 'files',
  lyrics: 'lyrics',
} as const;
export type SegmentType = keyof typeof SEGMENT_TYPES;

/** An owner byte's flag: a delta took the resource out of service (its last version still readable). */
const REMOVED = 0x80;
const SEGMENT_BITS = 0x7f;
/** At most this many segments (the owner byte's low bits). */
export const MAX_SEGMENTS = SEGMENT_BITS + 1;

interface TypeSegments {
  /** Per global ordinal: the segment holding its newest version, | REMOVED when out of service. */
  readonly owner: Uint8Array;
  /** Per segment (0, the base, unused): the global ordinals it holds, ascending. */
  readonly held: Uint32Array[];
  /** Resources in service. */
  readonly served: number;
  /** The base's ordinals: those below it. */
  readonly baseSize: number;
  /** SegmentMap.stale, made on first use. */
  stale?: Uint32Array;
}

export class SegmentMap {
  private constructor(
    private readonly types: Record<SegmentType, TypeSegments>,
    readonly count: number,
  ) {}

  /** The segments of a snapshot, or null when it has none (an ordinary snapshot). */
  static of(snapshot: Snapshot): SegmentMap | null {
    const count = snapshot.segmentCount;
    if (count <= 1) return null;
    const types = {} as Record<SegmentType, TypeSegments>;
    for (const type of Object.keys(SEGMENT_TYPES) as SegmentType[]) types[type] = typeSegments(snapshot, type, count);
    return new SegmentMap(types, count);
  }

  /** The global ordinals of a type: the base's, then those the deltas added. */
  size(type: SegmentType): number {
    return this.types[type].owner.length;
  }

  /** Resources of a type in service. */
  served(type: SegmentType): number {
    return this.types[type].served;
  }

  /** The segment holding the resource's newest version (0 for an ordinal out of range). */
  segmentOf(type: SegmentType, ordinal: number): number {
    return (this.types[type].owner[ordinal] ?? 0) & SEGMENT_BITS;
  }

  /** Whether a delta took the resource out of service. */
  removed(type: SegmentType, ordinal: number): boolean {
    return ((this.types[type].owner[ordinal] ?? 0) & REMOVED) !== 0;
  }

  /** Whether a key found in `segment` names `ordinal` as it is now: that segment holds it and it is in service. */
  answers(type: SegmentType, ordinal: number, segment: number): boolean {
    return this.types[type].owner[ordinal] === segment;
  }

  /** Where segment `segment`'s tables hold the resource: the ordinal in the base, its held index in a delta. */
  localOf(type: SegmentType, segment: number, ordinal: number): number {
    if (segment === 0) return ordinal;
    const held = this.types[type].held[segment];
    const at = lowerBound(held, ordinal);
    return at < held.length && held[at] === ordinal ? at : -1;
  }

  /** The base ordinals whose base version is not served (a delta holds them again, or took them out), ascending. */
  stale(type: SegmentType): Uint32Array {
    const types = this.types[type];
    if (!types.stale) {
      const out: number[] = [];
      for (let o = 0; o < types.baseSize; o++) if (types.owner[o] !== 0) out.push(o);
      types.stale = Uint32Array.from(out);
    }
    return types.stale;
  }

  /** The global ordinals segment `segment` holds (a delta's, ascending). */
  held(type: SegmentType, segment: number): Uint32Array {
    return this.types[type].held[segment];
  }
}

/** A type's owner bytes from the base's record count and each delta's held and removed ordinals, in order. */
function typeSegments(snapshot: Snapshot, type: SegmentType, count: number): TypeSegments {
  const table = SEGMENT_TYPES[type];
  const held: Uint32Array[] = [new Uint32Array(0)];
  const removed: Uint32Array[] = [new Uint32Array(0)];
  const baseSize = snapshot.hasRecords(table) ? snapshot.records(table).count : 0;
  let size = baseSize;
  for (let s = 1; s < count; s++) {
    held.push(column(snapshot, SEGMENT_HELD_TABLE, type, s));
    removed.push(column(snapshot, SEGMENT_REMOVED_TABLE, type, s));
    const last = held[s].length > 0 ? held[s][held[s].length - 1] + 1 : 0;
    size = Math.max(size, last);
  }
  const owner = new Uint8Array(size);
  for (let s = 1; s < count; s++) {
    for (const o of removed[s]) owner[o] |= REMOVED;
    for (const o of held[s]) owner[o] = s;
  }
  let out = 0;
  for (let o = 0; o < size; o++) if (owner[o] & REMOVED) out++;
  return { owner, held, served: size - out, baseSize };
}

/** A delta's column of a type, empty when it has none. */
function column(snapshot: Snapshot, table: string, type: string, segment: number): Uint32Array {
  if (!snapshot.hasArrays(table, segment)) return new Uint32Array(0);
  const arrays = snapshot.arrays(table, segment);
  if (!arrays.has(type)) return new Uint32Array(0);
  const col = arrays.column(type);
  return col.slice(0, col.length);
}
