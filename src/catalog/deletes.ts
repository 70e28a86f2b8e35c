import { DELETES_TABLE } from '../index-format/manifest.js';
import type { Snapshot } from '../index-format/index.js';

/** The types a deletes set holds: what a takedown takes out of service. */
export const DELETABLE_TYPES = ['song', 'album', 'artist'] as const;
export type DeletableType = (typeof DELETABLE_TYPES)[number];

const COUNT_NAME: Record<DeletableType, string> = { song: 'songs', album: 'albums', artist: 'artists' };

/**
 * A snapshot's deletes set (omm takedown): the songs, albums and artists no longer served, as
 * sorted ordinals and, once asked, one bit per ordinal. A snapshot without one has none; a type
 * with no deletes costs nothing (`any` is false, and lists are served as stored).
 */
export class DeletesSet {
  private readonly lists: Record<DeletableType, Uint32Array>;
  private readonly bits: Partial<Record<DeletableType, Uint8Array>> = {};

  private constructor(
    lists: Record<DeletableType, Uint32Array>,
    private readonly sizes: Record<DeletableType, number>,
  ) {
    this.lists = lists;
  }

  /** The deletes set of a snapshot, or null when it has none. */
  static of(snapshot: Snapshot): DeletesSet | null {
    if (!snapshot.hasArrays(DELETES_TABLE)) return null;
    const table = snapshot.arrays(DELETES_TABLE);
    const counts = snapshot.manifest.counts;
    const lists = {} as Record<DeletableType, Uint32Array>;
    const sizes = {} as Record<DeletableType, number>;
    for (const type of DELETABLE_TYPES) {
      const column = table.column(type);
      lists[type] = column.slice(0, column.length);
      sizes[type] = counts[COUNT_NAME[type]] ?? 0;
    }
    return new DeletesSet(lists, sizes);
  }

  /** Whether any resource of the type is taken down. */
  any(type: string): type is DeletableType {
    return (this.lists as Record<string, Uint32Array | undefined>)[type]?.length ? true : false;
  }

  /** The taken-down ordinals of a type, ascending. */
  list(type: DeletableType): Uint32Array {
    return this.lists[type];
  }

  count(type: DeletableType): number {
    return this.lists[type].length;
  }

  /** Whether the resource is taken down. */
  has(type: DeletableType, ordinal: number): boolean {
    const bits = this.bits[type] ?? this.bitsOf(type);
    return ordinal >= 0 && (bits[ordinal >>> 3] & (1 << (ordinal & 7))) !== 0;
  }

  /** The type's bits (one per ordinal), made on first use. */
  bitsOf(type: DeletableType): Uint8Array {
    let bits = this.bits[type];
    if (!bits) {
      bits = new Uint8Array((this.sizes[type] + 8) >>> 3);
      for (const o of this.lists[type]) bits[o >>> 3] |= 1 << (o & 7);
      this.bits[type] = bits;
    }
    return bits;
  }
}

/** Whether an ordinal's bit is set in bits made by DeletesSet.bitsOf. */
export function bitSet(bits: Uint8Array, ordinal: number): boolean {
  return (bits[ordinal >>> 3] & (1 << (ordinal & 7))) !== 0;
}
