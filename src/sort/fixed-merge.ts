import { closeSync, openSync, readSync } from 'node:fs';
import { SourceHeap } from './source-heap.js';

/**
 * The merge of a FixedSorter's sorted sources (the spilled runs, read a block at a time, and
 * the last arena held in memory) into one ascending stream of records: FixedCursor.
 */

/** A sorted source of records: `words` holds the current one at `at`; `next()` false when done. */
export interface Source {
  words: Uint32Array;
  at: number;
  next(): boolean;
  close(): void;
}

export class ArraySource implements Source {
  at: number;
  constructor(
    readonly words: Uint32Array,
    private readonly count: number,
    private readonly width: number,
  ) {
    this.at = -width;
  }
  next(): boolean {
    this.at += this.width;
    return this.at < this.count * this.width;
  }
  close(): void {}
}

export class RunSource implements Source {
  readonly words: Uint32Array;
  at = 0;
  private readonly bytes: Buffer;
  private filled = 0;
  private readonly fd: number;

  constructor(
    path: string,
    private readonly width: number,
    readRecords: number,
  ) {
    this.fd = openSync(path, 'r');
    this.words = new Uint32Array(readRecords * width);
    this.bytes = Buffer.from(this.words.buffer);
    this.at = -width;
  }

  next(): boolean {
    this.at += this.width;
    if (this.at < this.filled) return true;
    let read = 0;
    for (;;) {
      const n = readSync(this.fd, this.bytes, read, this.bytes.length - read, null);
      if (n === 0) break;
      read += n;
      if (read === this.bytes.length) break;
    }
    if (read % (this.width * 4) !== 0) throw new Error('run file ends inside a record');
    this.filled = read / 4;
    this.at = 0;
    return this.filled > 0;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** k-way merge by the first `keyWords` words; ties to the earlier source (stable). */
export class FixedCursor {
  words: Uint32Array = new Uint32Array(0);
  at = 0;
  private readonly heap: SourceHeap;
  private started = false;

  constructor(
    private readonly sources: Source[],
    keyWords: number,
    private readonly onClose: () => void,
  ) {
    const live = sources.map((_, i) => i).filter((i) => sources[i].next());
    this.heap = new SourceHeap(live, (a, b) => {
      const x = sources[a];
      const y = sources[b];
      for (let k = 0; k < keyWords; k++) {
        const p = x.words[x.at + k];
        const q = y.words[y.at + k];
        if (p !== q) return p < q;
      }
      return a < b;
    });
  }

  next(): boolean {
    const heap = this.heap;
    if (this.started && heap.size > 0) heap.advanced(!this.sources[heap.top].next());
    this.started = true;
    if (heap.size === 0) return false;
    const s = this.sources[heap.top];
    this.words = s.words;
    this.at = s.at;
    return true;
  }

  close(): void {
    for (const s of this.sources) s.close();
    this.onClose();
  }
}
