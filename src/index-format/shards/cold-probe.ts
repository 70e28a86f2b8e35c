/**
 * Whether reading mapped bytes waited for the disk: a major fault takes tens of microseconds, a
 * page already in memory well under one. A lookup of many keys in a snapshot larger than memory
 * (Shard.readsAhead) reads its first key this way, and asks for the pages of all the others at
 * once only when that one was on disk: a hot list (a common search's songs) pays no syscall.
 */
const COLD_NS = 8_000n;

/** Where the probed byte goes (a module variable), so the load cannot be optimised away. */
let sink = 0;

export function waitedForDisk(bytes: Uint8Array, at: number): boolean {
  const started = process.hrtime.bigint();
  sink ^= bytes[at];
  return process.hrtime.bigint() - started > COLD_NS;
}
