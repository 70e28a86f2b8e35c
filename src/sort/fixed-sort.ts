import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { sortFixedRecords } from './fixed-record-sort.js';
import { ArraySource, FixedCursor, RunSource, type Source } from './fixed-merge.js';
import { spillStats } from './spill-stats.js';

/** A FixedSorter in transit between threads (handOff, resume): plain data and one typed array. */
export interface FixedSorterState {
  readonly dir: string;
  readonly name: string;
  readonly width: number;
  readonly keyWords: number;
  readonly runs: readonly string[];
  readonly arena: Uint32Array;
  readonly count: number;
  readonly added: number;
  readonly budgetBytes: number;
}

/**
 * The most an arena holds, whatever the budget. Larger arenas sort no faster (bench/sort-bench.mjs,
 * 5M records of 4 words: 0.93 CPU s with 4 MiB arenas, 0.90 with 32 MiB; 1.45 with 2 MiB), and
 * only make a compile's memory grow with the catalog until the budget binds.
 */
const MAX_ARENA_BYTES = 4 * 2 ** 20;
/** Bytes read from a run file at a time while merging: the most, and the least however many runs. */
const MAX_READ_BYTES = 512 * 2 ** 10;
const MIN_READ_BYTES = 16 * 2 ** 10;

/**
 * An external sort of fixed-width records of u32 words (up to four) within a memory budget,
 * ordered by their first `keyWords` words as unsigned numbers, ties in the order added. For the
 * compile's joins and groupings: a 64-bit hash of an id and an ordinal, an owner ordinal and a
 * position. A full arena is radix-sorted (sortFixedRecords: key word by key word, stable) and spilled
 * as a run; reading merges the runs and the last arena through a heap.
 *
 * Memory: the arena and its scratch copy, `budgetBytes` together at most and 8 MiB at most (the
 * arena starts small and doubles, so a small input costs little); while merging, one read block
 * per run, together about `budgetBytes` (mergeReadRecords).
 */
export class FixedSorter {
  private arena: Uint32Array;
  private scratch: Uint32Array = new Uint32Array(0);
  /** Records the arena may grow to before it spills. */
  private readonly capacity: number;
  private count = 0;
  private readonly runs: string[] = [];
  private reading = false;
  private added = 0;

  constructor(
    private readonly dir: string,
    private readonly name: string,
    readonly width: number,
    private readonly keyWords: number,
    private readonly budgetBytes: number,
  ) {
    if (width < 1 || width > 4 || keyWords < 1 || keyWords > width) throw new Error(`sorter ${name}: width ${width}, key words ${keyWords}`);
    this.capacity = Math.max(1024, Math.floor(Math.min(budgetBytes / 2, MAX_ARENA_BYTES) / (4 * width)));
    this.arena = new Uint32Array(Math.min(this.capacity, 1 << 14) * width);
  }

  get runCount(): number {
    return this.runs.length;
  }

  get size(): number {
    return this.added;
  }

  /** Adds a record of `width` words (extra arguments are ignored, missing ones are 0). */
  add(w0: number, w1 = 0, w2 = 0, w3 = 0): void {
    if (this.reading) throw new Error(`sorter ${this.name}: add after reading began`);
    if (this.count * this.width === this.arena.length) this.grow();
    const at = this.count * this.width;
    const a = this.arena;
    a[at] = w0;
    if (this.width > 1) a[at + 1] = w1;
    if (this.width > 2) a[at + 2] = w2;
    if (this.width > 3) a[at + 3] = w3;
    this.count++;
    this.added++;
  }

  /**
   * Every record in order, to a callback reading `words[at]` to `words[at + width - 1]` (valid
   * during the call only). Removes the run files at the end.
   */
  drain(onRecord: (words: Uint32Array, at: number) => void): void {
    const cursor = this.cursor();
    try {
      while (cursor.next()) onRecord(cursor.words, cursor.at);
    } finally {
      cursor.close();
    }
  }

  /**
   * The records in order, pulled one at a time (for merge-joins of two sorted streams): after
   * `next()` returns true the record is `words[at..at + width)`. `close()` removes the runs.
   */
  cursor(): FixedCursor {
    if (this.reading) throw new Error(`sorter ${this.name}: read twice`);
    this.reading = true;
    const last = this.sortArena();
    const sources: Source[] = [];
    try {
      const readRecords = mergeReadRecords(this.budgetBytes, this.runs.length, this.width);
      for (const path of this.runs) sources.push(new RunSource(path, this.width, readRecords));
    } catch (err) {
      for (const s of sources) s.close();
      this.dispose();
      throw err;
    }
    sources.push(new ArraySource(last, this.count, this.width));
    return new FixedCursor(sources, this.keyWords, () => this.dispose());
  }

  /**
   * Everything this sorter holds (its run files and its arena, not yet sorted), for another
   * thread to read it through FixedSorter.resume; this sorter is done with it (the arena's
   * buffer may be transferred). The other side removes the runs when it has read them.
   */
  handOff(): FixedSorterState {
    if (this.reading) throw new Error(`sorter ${this.name}: handed off after reading began`);
    this.reading = true;
    const state: FixedSorterState = {
      dir: this.dir,
      name: this.name,
      width: this.width,
      keyWords: this.keyWords,
      runs: [...this.runs],
      arena: this.arena,
      count: this.count,
      added: this.added,
      budgetBytes: this.budgetBytes,
    };
    this.runs.length = 0;
    this.arena = this.scratch = new Uint32Array(0);
    return state;
  }

  /** A sorter handed off by another thread (handOff), ready to be read. */
  static resume(state: FixedSorterState): FixedSorter {
    const sorter = new FixedSorter(state.dir, state.name, state.width, state.keyWords, state.budgetBytes);
    sorter.runs.push(...state.runs);
    sorter.arena = state.arena;
    sorter.count = state.count;
    sorter.added = state.added;
    return sorter;
  }

  /** Doubles a full arena up to its capacity, or spills it when it is there. */
  private grow(): void {
    const records = this.arena.length / this.width;
    if (records >= this.capacity) {
      this.spill();
      return;
    }
    const bigger = new Uint32Array(Math.min(this.capacity, records * 2) * this.width);
    bigger.set(this.arena);
    this.arena = bigger;
  }

  /** Removes the run files and lets go of the arena. */
  dispose(): void {
    for (const path of this.runs) rmSync(path, { force: true });
    this.runs.length = 0;
    this.arena = this.scratch = new Uint32Array(0);
  }

  /** Sorts the arena's records (see sortFixedRecords); returns the arena. */
  private sortArena(): Uint32Array {
    if (this.scratch.length < this.arena.length) this.scratch = new Uint32Array(this.arena.length);
    sortFixedRecords(this.arena, this.scratch, this.count, this.width, this.keyWords);
    return this.arena;
  }

  private spill(): void {
    const sorted = this.sortArena();
    const path = join(this.dir, `${this.name}.${String(this.runs.length).padStart(4, '0')}.run`);
    spillStats.runs++;
    const fd = openSync(path, 'w');
    try {
      const bytes = Buffer.from(sorted.buffer, sorted.byteOffset, this.count * this.width * 4);
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, Math.min(1 << 24, bytes.length - off));
    } finally {
      closeSync(fd);
    }
    this.runs.push(path);
    this.count = 0;
  }
}

/**
 * Records read from each run at a time while merging `runs` runs: the sorter's budget split
 * among them, between 16 and 512 KiB a run. Arenas stop at 4 MiB, so a large input spills many
 * runs (a 10M-song compile's songs' ids: about 190); blocks of a fixed 512 KiB would then hold
 * 95 MiB where the budget gave the sorter 29.
 */
export function mergeReadRecords(budgetBytes: number, runs: number, width: number): number {
  const bytes = Math.min(MAX_READ_BYTES, Math.max(MIN_READ_BYTES, Math.floor(budgetBytes / Math.max(1, runs))));
  return Math.max(1, Math.floor(bytes / (4 * width)));
}
