import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { RECORD_HEAD } from './arena-key-sort.js';
import { compareKeyBytes, u32le, wordAt } from './key-bytes.js';
import { SourceHeap } from './source-heap.js';
import { spillStats } from './spill-stats.js';

/**
 * The external sort's runs: a run file is whole records (an 8-byte head of key and value
 * lengths, the key, the value) in key order. Written through one block, read through one, and
 * merged k ways with the sorter's last arena (external-sort.ts).
 */

/** Bytes read or written at a time per run file. */
export const IO_BLOCK = 1 << 20;

/** Merges sorted run files into one at `path`, record bytes copied as they lie. */
export function mergeRunFiles(runs: readonly string[], path: string): void {
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
export class RunWriter {
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
export interface RecordSource {
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

export class ArenaReader implements RecordSource {
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

export class RunReader implements RecordSource {
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
  /** Called before the block's bytes move: positions of the records read so far become invalid. */
  beforeMove: (() => void) | null = null;

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
    this.beforeMove?.();
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
export class MergeCursor {
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
