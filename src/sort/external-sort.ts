import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ArenaKeySort, RECORD_HEAD } from './arena-key-sort.js';
import { copyBytes, putU32le, u32le } from './key-bytes.js';
import { ArenaReader, IO_BLOCK, MergeCursor, mergeRunFiles, type RecordSource, RunReader, RunWriter } from './run-files.js';

/** The fewest runs merged at once, whatever the budget. */
const MIN_FAN_IN = 8;

export interface SortedRecord {
  /** The key's bytes: valid until the next record is read. */
  readonly key: Buffer;
  /** The value's bytes: valid until the next record is read. */
  readonly value: Buffer;
}

/**
 * An external merge sort of (key, value) byte records within a memory budget. Records gather in
 * an arena of `budgetBytes`; a full arena is sorted and written to `dir` as a run; reading
 * merges the runs and the last arena in key order. Keys compare as bytes, so callers encode
 * what they sort by as order-preserving bytes (big-endian numbers, UTF-8 text). Ties keep the
 * order records were added in: the in-memory sort is stable and the merge prefers earlier runs.
 *
 * Memory: the arena, its index and the sort's work arrays (28 bytes a record, counted in the
 * budget) and, while merging, one read block (1 MiB) per run merged at once. At most a third of
 * the budget's worth of runs (and at least 8) are merged at once: when more were spilled, they
 * are first merged in groups of that many into longer runs, as often as needed, so merging stays
 * within the budget however large the input.
 */
const EMPTY = new Uint8Array(0);

export class ExternalSorter {
  private readonly arena: Buffer;
  private readonly index: Uint32Array;
  private used = 0;
  private count = 0;
  private readonly runs: string[] = [];
  /** Sorted run files written elsewhere, merged ahead of this sorter's records and never removed (mergeWith). */
  private readonly kept: string[] = [];
  private added = 0;
  private reading = false;
  private readonly keySort = new ArenaKeySort();
  /** Most sources (runs and the last arena) merged at once. */
  private readonly fanIn: number;
  private merged = 0;

  constructor(
    private readonly dir: string,
    private readonly name: string,
    budgetBytes: number,
  ) {
    // Two thirds for record bytes, the rest for the per-record arrays: the index here, and the
    // sort's six working arrays (28 bytes a record in all).
    const arenaBytes = Math.max(64 * 1024, Math.floor((budgetBytes * 2) / 3));
    this.arena = Buffer.allocUnsafe(arenaBytes);
    const slots = Math.max(1024, Math.floor((budgetBytes - arenaBytes) / 28));
    this.index = new Uint32Array(slots);
    this.fanIn = Math.max(MIN_FAN_IN, Math.floor(budgetBytes / 3 / IO_BLOCK));
  }

  /** Runs written to disk so far. */
  get runCount(): number {
    return this.runs.length;
  }

  /** Records added. */
  get size(): number {
    return this.added;
  }

  add(key: Uint8Array, value: Uint8Array = EMPTY): void {
    if (this.reading) throw new Error(`sorter ${this.name}: add after reading began`);
    const bytes = RECORD_HEAD + key.length + value.length;
    if (bytes > this.arena.length) throw new Error(`sorter ${this.name}: a record of ${bytes} bytes exceeds the arena (${this.arena.length})`);
    if (this.used + bytes > this.arena.length || this.count === this.index.length) this.spill();
    const at = this.used;
    const arena = this.arena;
    putU32le(arena, at, key.length);
    putU32le(arena, at + 4, value.length);
    copyBytes(arena, at + RECORD_HEAD, key);
    copyBytes(arena, at + RECORD_HEAD + key.length, value);
    this.index[this.count] = at;
    this.count++;
    this.used += bytes;
    this.added++;
  }

  /**
   * Merges a run file sorted elsewhere (same record format, key order) with this sorter's records
   * when they are read: its records come first among equal keys. The file is read, never removed.
   */
  mergeWith(path: string): void {
    if (this.reading) throw new Error(`sorter ${this.name}: mergeWith after reading began`);
    this.kept.push(path);
  }

  /** Every record in key order. Removes the run files when the iteration ends. */
  *sorted(): Generator<SortedRecord> {
    const cursor = this.cursor();
    try {
      while (cursor.next())
        yield { key: cursor.buffer.subarray(cursor.keyStart, cursor.keyEnd), value: cursor.buffer.subarray(cursor.keyEnd, cursor.valueEnd) };
    } finally {
      cursor.close();
    }
  }

  /**
   * Every record in key order, to a callback that reads it where it lies (`buffer` from
   * `keyStart` to `keyEnd`, then the value up to `valueEnd`; valid during the call only): no
   * allocation per record. Removes the run files at the end.
   */
  drain(onRecord: (buffer: Buffer, keyStart: number, keyEnd: number, valueEnd: number) => void): void {
    const cursor = this.cursor();
    try {
      while (cursor.next()) onRecord(cursor.buffer, cursor.keyStart, cursor.keyEnd, cursor.valueEnd);
    } finally {
      cursor.close();
    }
  }

  private cursor(): MergeCursor {
    if (this.reading) throw new Error(`sorter ${this.name}: read twice`);
    this.reading = true;
    const order = this.sortArena();
    this.keySort.release();
    this.mergeRunsDown();
    const sources: RecordSource[] = [];
    try {
      for (const path of [...this.kept, ...this.runs]) sources.push(new RunReader(path));
    } catch (err) {
      for (const s of sources) s.close();
      this.dispose();
      throw err;
    }
    sources.push(new ArenaReader(this.arena, order));
    return new MergeCursor(sources, () => this.dispose());
  }

  /**
   * Merges consecutive groups of `fanIn` runs into one run each until the runs and the arena can
   * be merged at once. A group's run takes the group's place, and a merge prefers earlier runs,
   * so ties keep the order records were added in.
   */
  private mergeRunsDown(): void {
    while (this.kept.length + this.runs.length + 1 > this.fanIn) {
      const next: string[] = [];
      for (let from = 0; from < this.runs.length; from += this.fanIn) {
        const group = this.runs.slice(from, from + this.fanIn);
        if (group.length === 1) {
          next.push(group[0]);
          continue;
        }
        const path = join(this.dir, `${this.name}.m${String(this.merged++).padStart(4, '0')}.run`);
        mergeRunFiles(group, path);
        for (const run of group) rmSync(run, { force: true });
        next.push(path);
      }
      this.runs.splice(0, this.runs.length, ...next);
    }
  }

  /** Removes the run files (also when reading stopped early or never began). */
  dispose(): void {
    for (const path of this.runs) rmSync(path, { force: true });
    this.runs.length = 0;
  }

  /** The arena's records in key order, as their offsets in the arena (stable; see ArenaKeySort). */
  private sortArena(): Uint32Array {
    return this.keySort.sort(this.arena, this.index, this.count);
  }

  private spill(): void {
    if (this.count === 0) return;
    const order = this.sortArena();
    const writer = new RunWriter(join(this.dir, `${this.name}.${String(this.runs.length).padStart(4, '0')}.run`));
    try {
      const arena = this.arena;
      for (let i = 0; i < order.length; i++) {
        const at = order[i];
        writer.add(arena, at, at + RECORD_HEAD + u32le(arena, at) + u32le(arena, at + 4));
      }
    } finally {
      writer.close();
    }
    this.runs.push(writer.path);
    this.used = 0;
    this.count = 0;
  }
}
