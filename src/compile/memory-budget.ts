/**
 * The compile's default memory budget, 512 MiB: the same on every machine, so a compile behaves
 * alike everywhere. Measured peaks: 259 MiB at 1M songs, 292 at 2M, 420 at 10M (docs/scale.md).
 * A machine with memory to spare may pass --memory.
 */
export const DEFAULT_MEMORY_BYTES = 512 * 2 ** 20;

/** The smallest budget accepted: the process itself needs about this much besides its sorters. */
export const MIN_MEMORY_BYTES = 64 * 2 ** 20;

/**
 * What a compile keeps aside from its budget for everything that is not a sorter's arena: the
 * JS heap and code of the main thread and its worker, parse buffers, write buffers.
 */
export const RESERVED_BYTES = 160 * 2 ** 20;

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 2 ** 10,
  kb: 2 ** 10,
  kib: 2 ** 10,
  m: 2 ** 20,
  mb: 2 ** 20,
  mib: 2 ** 20,
  g: 2 ** 30,
  gb: 2 ** 30,
  gib: 2 ** 30,
};

/** "2g", "1.5GiB", "512m", "800MB", "1073741824" -> bytes (units are powers of 1024); null when unreadable. */
export function parseMemorySize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (!m) return null;
  const unit = UNITS[m[2].toLowerCase()];
  if (unit === undefined) return null;
  const bytes = Math.floor(Number(m[1]) * unit);
  return Number.isFinite(bytes) && bytes > 0 ? bytes : null;
}

/** 1610612736 -> "1.5 GiB". */
export function formatMemorySize(bytes: number): string {
  if (bytes >= 2 ** 30) return `${+(bytes / 2 ** 30).toFixed(2)} GiB`;
  return `${+(bytes / 2 ** 20).toFixed(1)} MiB`;
}

/**
 * The budget of one compile. Sorters are the only memory that grows with the catalog, and they
 * run a few at a time: each phase asks for `sorterBytes(k)` when it keeps k sorters filling at
 * once, and gets an equal share of what the reserve leaves. Threads that sort at the same time
 * each take a `share` of that room, so together they stay within it.
 */
export class MemoryBudget {
  /** Bytes for sorters' arenas: the budget less the reserve (at least a quarter of it). */
  private readonly sorterRoom: number;

  /**
   * The CLI refuses less than MIN_MEMORY_BYTES; tests pass a budget of a few KiB, so that a
   * small catalog spills and merges many runs.
   */
  constructor(
    readonly totalBytes: number = DEFAULT_MEMORY_BYTES,
    sorterRoom?: number,
  ) {
    if (!(totalBytes > 0)) throw new RangeError(`memory budget ${totalBytes} is not a positive size`);
    this.sorterRoom = sorterRoom ?? Math.max(totalBytes - RESERVED_BYTES, totalBytes / 4);
  }

  /** Arena bytes for each of `k` sorters filling at the same time (at least 16 KiB each). */
  sorterBytes(k: number): number {
    return Math.max(16 * 2 ** 10, Math.floor(this.sorterRoom / Math.max(1, k)));
  }

  /**
   * A part of this budget's room for sorters, for a thread that sorts beside another: the
   * reserve is the process's and is not taken again, so shares that add up to 1 add up to the
   * whole budget.
   */
  share(fraction: number): MemoryBudget {
    return new MemoryBudget(this.totalBytes * fraction, this.sorterRoom * fraction);
  }
}
