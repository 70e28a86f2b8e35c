/**
 * Whether reading mapped bytes waited for the disk: a major fault takes tens of microseconds, a
 * page already in memory well under one. A lookup of many keys in a snapshot larger than memory
 * (Shard.readsAhead) reads its first key this way (and ColdRate below decides): a hot list (a
 * common search's songs) pays no syscall.
 */
const COLD_NS = 8_000n;

/** Where the probed byte goes (a module variable), so the load cannot be optimised away. */
let sink = 0;

export function waitedForDisk(bytes: Uint8Array, at: number): boolean {
  const started = process.hrtime.bigint();
  sink ^= bytes[at];
  return process.hrtime.bigint() - started > COLD_NS;
}

/**
 * How often a table's probes waited for the disk lately (an average over about the last eight).
 * One key's page says little about the other nine of a lookup where memory holds part of the
 * table: a lookup asks for all its pages when its own probe waited, or when the table's probes
 * often do.
 */
export class ColdRate {
  private rate = 0;

  /** Records a probe; whether the lookup should ask for all its pages. */
  observe(waited: boolean): boolean {
    this.rate += ((waited ? 1 : 0) - this.rate) / 8;
    return waited || this.rate > 0.25;
  }
}
