import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ArenaKeySort, RECORD_HEAD } from './arena-key-sort.js';
import { compareKeyBytes, copyBytes, putU32le, u32le, wordAt } from './key-bytes.js';
import { SourceHeap } from './source-heap.js';
import { spillStats } from './spill-stats.js';

/** Bytes read or written at a time per run file. */
const IO_BLOCK = 1 << 20;
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
export class ExternalSorter {
  private readonly arena: Buffer;
  private readonly index: Uint32Array;
  private used = 0;
  private count = 0;
  private readonly runs: string[] = [];
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
      for (const path of this.runs) sources.push(new RunReader(path));
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
    while (this.runs.length + 1 > this.fanIn) {
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

const EMPTY = new Uint8Array(0);

/** Merges sorted run files into one at `path`, record bytes copied as they lie. */
function mergeRunFiles(runs: readonly string[], path: string): void {
  const sources: RecordSource[] = [];
  const writer = new RunWriter(path);
  try {
    for (const run of runs) sources.push(new RunReader(run));
    const cursor = new MergeCursor(sources, () => {});
    while (cursor.next()) writer.add(cursor.buffer, cursor.keyStart - RECORD_HEAD, cursor.valueEnd);
  } finally {
    for (const source of sources) source.close();
    writer.close();
  }
}

/** Writes whole records (head, key, value) to a run file through one write block. */
class RunWriter {
  private readonly fd: number;
  private readonly block = Buffer.allocUnsafe(IO_BLOCK);
  private filled = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
    spillStats.runs++;
  }

  /** The record at `source[start..end)`. */
  add(source: Buffer, start: number, end: number): void {
    const block = this.block;
    const bytes = end - start;
    if (this.filled + bytes > block.length) {
      writeSync(this.fd, block, 0, this.filled);
      this.filled = 0;
    }
    if (bytes > block.length) writeSync(this.fd, source, start, bytes);
    else if (bytes <= SHORT_COPY) for (let b = start; b < end; b++) block[this.filled++] = source[b];
    else this.filled += source.copy(block, this.filled, start, end);
  }

  close(): void {
    try {
      writeSync(this.fd, this.block, 0, this.filled);
    } finally {
      closeSync(this.fd);
    }
  }
}

/** Records up to this many bytes are copied into a write block by a loop rather than a call to Buffer.copy. */
const SHORT_COPY = 64;

/** A sorted source of records: its current record's bytes, `next()` to advance. */
interface RecordSource {
  /** The buffer holding the current record and where its key and value lie; null when done. */
  buffer: Buffer | null;
  keyStart: number;
  keyEnd: number;
  valueEnd: number;
  /** The key's first 8 bytes as two big-endian words (zero past its end): most comparisons end here. */
  head: number;
  head2: number;
  next(): void;
  close(): void;
}

class ArenaReader implements RecordSource {
  buffer: Buffer | null;
  keyStart = 0;
  keyEnd = 0;
  valueEnd = 0;
  head = 0;
  head2 = 0;
  private i = -1;

  constructor(
    private readonly arena: Buffer,
    /** Offsets of the arena's records in key order. */
    private readonly order: Uint32Array,
  ) {
    this.buffer = arena;
    this.next();
  }

  next(): void {
    if (++this.i >= this.order.length) {
      this.buffer = null;
      return;
    }
    const at = this.order[this.i];
    this.keyStart = at + RECORD_HEAD;
    this.keyEnd = this.keyStart + u32le(this.arena, at);
    this.valueEnd = this.keyEnd + u32le(this.arena, at + 4);
    this.head = wordAt(this.arena, this.keyStart, this.keyEnd);
    this.head2 = wordAt(this.arena, this.keyStart + 4, this.keyEnd);
  }

  close(): void {}
}

class RunReader implements RecordSource {
  buffer: Buffer | null;
  keyStart = 0;
  keyEnd = 0;
  valueEnd = 0;
  head = 0;
  head2 = 0;
  private readonly fd: number;
  private block = Buffer.allocUnsafe(IO_BLOCK);
  /** Bytes of `block` holding data, and where the unread part starts. */
  private filled = 0;
  private at = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'r');
    this.buffer = this.block;
    this.next();
  }

  next(): void {
    this.at = this.valueEnd;
    if (!this.ensure(RECORD_HEAD)) {
      this.buffer = null;
      return;
    }
    const keyLength = u32le(this.block, this.at);
    const valueLength = u32le(this.block, this.at + 4);
    if (!this.ensure(RECORD_HEAD + keyLength + valueLength)) throw new Error('run file ends inside a record');
    this.buffer = this.block;
    this.keyStart = this.at + RECORD_HEAD;
    this.keyEnd = this.keyStart + keyLength;
    this.valueEnd = this.keyEnd + valueLength;
    this.head = wordAt(this.block, this.keyStart, this.keyEnd);
    this.head2 = wordAt(this.block, this.keyStart + 4, this.keyEnd);
  }

  /** Makes `bytes` bytes from `at` available in `block` (moving the rest to its start, growing it for a large record); false at the end of the file. */
  private ensure(bytes: number): boolean {
    if (this.filled - this.at >= bytes) return true;
    const rest = this.filled - this.at;
    const target = bytes > this.block.length ? Buffer.allocUnsafe(bytes) : this.block;
    this.block.copy(target, 0, this.at, this.filled);
    this.block = target;
    this.filled = rest;
    this.at = 0;
    while (this.filled < bytes) {
      const read = readSync(this.fd, this.block, this.filled, this.block.length - this.filled, null);
      if (read === 0) break;
      this.filled += read;
    }
    this.valueEnd = 0;
    return this.filled >= bytes;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** k-way merge over a binary heap of sources; ties go to the earlier source (stable). */
class MergeCursor {
  buffer: Buffer = EMPTY_BUFFER;
  keyStart = 0;
  keyEnd = 0;
  valueEnd = 0;
  private readonly heap: SourceHeap;
  private started = false;

  constructor(
    private readonly sources: RecordSource[],
    private readonly onClose: () => void,
  ) {
    const live = sources.map((_, i) => i).filter((i) => sources[i].buffer !== null);
    this.heap = new SourceHeap(live, (a, b) => {
      const x = sources[a];
      const y = sources[b];
      if (x.head !== y.head) return x.head < y.head;
      if (x.head2 !== y.head2) return x.head2 < y.head2;
      const c = compareKeyBytes(x.buffer!, x.keyStart, x.keyEnd, y.buffer!, y.keyStart, y.keyEnd, 8);
      return c < 0 || (c === 0 && a < b);
    });
  }

  /** Moves to the next record in key order; false when there is none. */
  next(): boolean {
    const heap = this.heap;
    if (this.started && heap.size > 0) {
      const s = this.sources[heap.top];
      s.next();
      heap.advanced(s.buffer === null);
    }
    this.started = true;
    if (heap.size === 0) return false;
    const s = this.sources[heap.top];
    this.buffer = s.buffer!;
    this.keyStart = s.keyStart;
    this.keyEnd = s.keyEnd;
    this.valueEnd = s.valueEnd;
    return true;
  }

  close(): void {
    for (const s of this.sources) s.close();
    this.onClose();
  }
}

const EMPTY_BUFFER = Buffer.alloc(0);
