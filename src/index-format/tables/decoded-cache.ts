/**
 * The decompressed bytes of a compressed table's records asked for again and again: the results
 * of common searches, the front of popular lists. Direct-mapped by ordinal, SLOTS slots of
 * SLOT_BYTES in one arena made on first use (2 MiB a table, resident as slots are written), so
 * keeping a record allocates nothing (an allocation per record kept made garbage enough to lift
 * a loaded server's p99 from 8 to 20 ms). A record is kept the second time it is asked for in a
 * row of its slot (a record asked for once, as a uniformly random lookup is, costs one number
 * written and no copy), when it fits a slot; a kept record asked for since the last try to
 * replace it keeps its slot that once (a second chance, as a clock cache gives). Each slot has a
 * generation, bumped when it is written: what was read from a slot is good while its generation
 * holds (a response placing two records of one slot decodes the first again), and a snapshot is
 * immutable, so a kept record never goes stale; a swap opens new tables and drops these.
 */
const SLOTS = 1024;
const SLOT_BYTES = 2048;

export class DecodedCache {
  private arena: Buffer | null = null;
  private readonly kept = new Float64Array(SLOTS).fill(-1);
  private readonly seen = new Float64Array(SLOTS).fill(-1);
  private readonly used = new Uint8Array(SLOTS);
  private readonly lengths = new Uint16Array(SLOTS);
  private readonly generations = new Uint32Array(SLOTS);

  /** Whether `ordinal` is kept (without counting it as asked for). */
  holds(ordinal: number): boolean {
    return this.kept[ordinal & (SLOTS - 1)] === ordinal;
  }

  /** The slot holding `ordinal` decoded, or -1. */
  find(ordinal: number): number {
    const slot = ordinal & (SLOTS - 1);
    if (this.kept[slot] !== ordinal) return -1;
    this.used[slot] = 1;
    return slot;
  }

  /** Whether `ordinal`, of `length` bytes decoded, should be kept now (its second time in a row); notes it otherwise. */
  admits(ordinal: number, length: number): boolean {
    const slot = ordinal & (SLOTS - 1);
    if (this.seen[slot] !== ordinal) {
      this.seen[slot] = ordinal;
      return false;
    }
    if (length > SLOT_BYTES) return false;
    if (this.used[slot] === 1) {
      // The one kept there was asked for since: it stays, this once.
      this.used[slot] = 0;
      this.seen[slot] = -1;
      return false;
    }
    return true;
  }

  /** Keeps `ordinal`'s `length` bytes, which `write` puts where it is told; returns its slot. */
  keep(ordinal: number, length: number, write: (out: Uint8Array, at: number) => void): number {
    const slot = ordinal & (SLOTS - 1);
    this.arena ??= Buffer.alloc(SLOTS * SLOT_BYTES);
    this.generations[slot]++;
    this.kept[slot] = -1;
    write(this.arena, slot * SLOT_BYTES);
    this.kept[slot] = ordinal;
    this.lengths[slot] = length;
    this.used[slot] = 0;
    return slot;
  }

  generation(slot: number): number {
    return this.generations[slot];
  }

  length(slot: number): number {
    return this.lengths[slot];
  }

  /** Copies the first `length` bytes of `slot` to `out` at `at` if its generation is still `generation`; false otherwise. */
  copyOut(slot: number, generation: number, out: Uint8Array, at: number, length: number): boolean {
    if (this.generations[slot] !== generation || !this.arena) return false;
    this.arena.copy(out, at, slot * SLOT_BYTES, slot * SLOT_BYTES + length);
    return true;
  }
}
