/**
 * The decompressed bytes of a compressed table's records asked for again and again: the results
 * of common searches, the front of popular lists. Direct-mapped by ordinal, SLOTS slots: a
 * record is kept the second time it is asked for in a row of its slot (a record asked for once,
 * as a uniformly random lookup is, costs one number written and no copy), and only when it is
 * at most MAX_BYTES; a kept record asked for since the last try to replace it keeps its slot
 * that once (a second chance, as a clock cache gives), so records that share a slot and are
 * both asked for often do not push each other out, allocating on every turn. At most SLOTS x
 * MAX_BYTES bytes per table (8 MiB), a few hundred KiB as views usually are. A snapshot is
 * immutable, so a kept record never goes stale; a swap opens new tables and drops these.
 */
const SLOTS = 2048;
const MAX_BYTES = 4096;

export class DecodedCache {
  private readonly kept = new Float64Array(SLOTS).fill(-1);
  private readonly seen = new Float64Array(SLOTS).fill(-1);
  private readonly used = new Uint8Array(SLOTS);
  private readonly bytes: (Uint8Array | null)[] = new Array(SLOTS).fill(null);

  /** The kept bytes of `ordinal`, or null. */
  get(ordinal: number): Uint8Array | null {
    const slot = ordinal & (SLOTS - 1);
    if (this.kept[slot] !== ordinal) return null;
    this.used[slot] = 1;
    return this.bytes[slot];
  }

  /** Whether `ordinal`, of `length` bytes decoded, should be kept now (its second time in a row); notes it otherwise. */
  admits(ordinal: number, length: number): boolean {
    const slot = ordinal & (SLOTS - 1);
    if (this.seen[slot] !== ordinal) {
      this.seen[slot] = ordinal;
      return false;
    }
    if (length > MAX_BYTES) return false;
    if (this.used[slot] === 1) {
      // The one kept there was asked for since: it stays, this once.
      this.used[slot] = 0;
      this.seen[slot] = -1;
      return false;
    }
    return true;
  }

  keep(ordinal: number, decoded: Uint8Array): void {
    const slot = ordinal & (SLOTS - 1);
    this.kept[slot] = ordinal;
    this.bytes[slot] = decoded;
    this.used[slot] = 0;
  }
}
