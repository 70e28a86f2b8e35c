import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { ShardWriter } from '../index-format/shards/shard-writer.js';
import { u32Bytes } from '../index-format/u32.js';
import { FixedSorter } from '../sort/fixed-sort.js';

/**
 * The `slots` section of a key table written out of core. Entries arrive as (hash, entry offset
 * + 1) pairs; sorted by home slot (hash & (capacity - 1)), each takes slot max(home, previous + 1),
 * so every slot between an entry's home and its slot is full and linear probing finds it. The
 * entries that run past the last slot wrap into the first empty slots from 0: a lookup that runs
 * off the end continues there, and filling an empty slot never breaks another entry's chain.
 * Slots are then streamed in order, so neither the table nor its pairs are ever whole in memory.
 */

/** Pairs read or written at a time (512 KiB). */
const PAIRS_PER_BLOCK = 1 << 16;

/** Appends (hash, entry offset + 1) pairs to a file through one block. */
export class PairFileWriter {
  private readonly fd: number;
  private readonly block = new Uint32Array(PAIRS_PER_BLOCK * 2);
  private filled = 0;
  /** Pairs written. */
  count = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  push(hash: number, entry: number): void {
    this.block[this.filled * 2] = hash;
    this.block[this.filled * 2 + 1] = entry;
    this.count++;
    if (++this.filled === PAIRS_PER_BLOCK) this.flush();
  }

  private flush(): void {
    const bytes = u32Bytes(this.block.subarray(0, this.filled * 2));
    for (let off = 0; off < bytes.length; ) off += writeSync(this.fd, bytes, off, bytes.length - off);
    this.filled = 0;
  }

  close(): void {
    try {
      this.flush();
    } finally {
      closeSync(this.fd);
    }
  }
}

/** Reads pairs from a pair file, starting at pair `from`; after `next()` the pair is `hash`, `entry`. */
class PairFileReader {
  hash = 0;
  entry = 0;
  private readonly fd: number;
  private readonly block = new Uint32Array(PAIRS_PER_BLOCK * 2);
  private readonly bytes = u32Bytes(this.block);
  private position: number;
  private filled = 0;
  private at = 0;

  constructor(path: string, from: number) {
    this.fd = openSync(path, 'r');
    this.position = from * 8;
  }

  next(): void {
    if (this.at === this.filled) this.fill();
    this.hash = this.block[this.at * 2];
    this.entry = this.block[this.at * 2 + 1];
    this.at++;
  }

  private fill(): void {
    let read = 0;
    while (read < this.bytes.length) {
      const n = readSync(this.fd, this.bytes, read, this.bytes.length - read, this.position + read);
      if (n === 0) break;
      read += n;
    }
    if (read === 0 || read % 8 !== 0) throw new Error(`pair file ${this.position} bytes in: ${read === 0 ? 'ends early' : 'ends inside a pair'}`);
    this.position += read;
    this.filled = read / 8;
    this.at = 0;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Pairs in home-slot order in a file, and how many of them (the last ones) wrap past the end. */
export interface HomeOrderedPairs {
  readonly path: string;
  readonly count: number;
  readonly capacity: number;
  readonly wrapped: number;
}

/** log2 of a power of two. */
function log2(capacity: number): number {
  return 31 - Math.clz32(capacity);
}

/**
 * Sorts the pairs of `byHashPath` into home-slot order for a table of `capacity` slots, through a
 * FixedSorter of `budgetBytes`, into a new file from `fresh`. The sort key is the hash rotated
 * right by log2(capacity) bits: its home slot on top, the rest of the hash below, so one key word
 * orders by home slot and still gives the hash back. Ties (equal hashes) keep the input order.
 */
export function sortPairsByHome(byHashPath: string, count: number, capacity: number, fresh: (name: string) => string, budgetBytes: number): HomeOrderedPairs {
  if (capacity > 2 ** 31 || (capacity & (capacity - 1)) !== 0) throw new Error(`key table capacity ${capacity} is not a power of two up to 2^31`);
  const bits = log2(capacity);
  const runsAt = fresh('by-home');
  const sorter = new FixedSorter(dirname(runsAt), basename(runsAt), 2, 1, budgetBytes);
  const out = new PairFileWriter(fresh('pairs-by-home'));
  try {
    const input = new PairFileReader(byHashPath, 0);
    try {
      for (let i = 0; i < count; i++) {
        input.next();
        const h = input.hash;
        sorter.add(((h >>> bits) | (h << (32 - bits))) >>> 0, input.entry);
      }
    } finally {
      input.close();
    }
    const mask = capacity - 1;
    let last = -1;
    let wrapped = 0;
    sorter.drain((words, at) => {
      const rotated = words[at];
      const hash = ((rotated << bits) | (rotated >>> (32 - bits))) >>> 0;
      last = Math.max(hash & mask, last + 1);
      if (last >= capacity) wrapped++;
      out.push(hash, words[at + 1]);
    });
    out.close();
    return { path: out.path, count, capacity, wrapped };
  } catch (err) {
    sorter.dispose();
    try {
      out.close();
    } catch {
      // Already closed, or the error that matters is the first one.
    }
    rmSync(out.path, { force: true });
    throw err;
  }
}

/** Slots put together at a time before they go to the shard (512 KiB). */
const SLOTS_PER_CHUNK = 1 << 16;

/** Streams slots 0..capacity-1 to the shard writer, filling a chunk that is zero where a slot is empty. */
class SlotStream {
  /** The next slot to put. */
  slot = 0;
  private readonly chunk = new Uint32Array(SLOTS_PER_CHUNK * 2);
  private filled = 0;

  constructor(private readonly writer: ShardWriter) {}

  put(hash: number, entry: number): void {
    this.chunk[this.filled * 2] = hash;
    this.chunk[this.filled * 2 + 1] = entry;
    this.slot++;
    if (++this.filled === SLOTS_PER_CHUNK) this.flush();
  }

  /** Leaves slots empty up to `target` (exclusive). */
  skipTo(target: number): void {
    while (this.slot < target) {
      const n = Math.min(target - this.slot, SLOTS_PER_CHUNK - this.filled);
      this.filled += n;
      this.slot += n;
      if (this.filled === SLOTS_PER_CHUNK) this.flush();
    }
  }

  flush(): void {
    if (this.filled === 0) return;
    this.writer.write(u32Bytes(this.chunk.subarray(0, this.filled * 2)));
    this.chunk.fill(0, 0, this.filled * 2);
    this.filled = 0;
  }
}

/**
 * Writes the `slots` section from pairs in home-slot order. Two readers walk the pair file: one
 * from the start for the entries that stay in place, one from the first wrapped entry, whose
 * entries go into the empty slots met first.
 */
export function writeSlotsSection(writer: ShardWriter, pairs: HomeOrderedPairs): void {
  const { path, count, capacity, wrapped } = pairs;
  const mask = capacity - 1;
  const inPlace = count - wrapped;
  const main = new PairFileReader(path, 0);
  const wrap = new PairFileReader(path, inPlace);
  let wrapsLeft = wrapped;
  try {
    const slots = new SlotStream(writer);
    /** Empty slots before `target` take the wrapped entries while there are any. */
    const fillTo = (target: number) => {
      while (wrapsLeft > 0 && slots.slot < target) {
        wrap.next();
        slots.put(wrap.hash, wrap.entry);
        wrapsLeft--;
      }
      slots.skipTo(target);
    };
    writer.beginSection('slots');
    let last = -1;
    for (let i = 0; i < inPlace; i++) {
      main.next();
      const slot = Math.max(main.hash & mask, last + 1);
      if (slot >= capacity) throw new Error(`key table slots: pair ${i} of ${inPlace} lands past the table (${slot} of ${capacity})`);
      fillTo(slot);
      slots.put(main.hash, main.entry);
      last = slot;
    }
    fillTo(capacity);
    if (wrapsLeft > 0) throw new Error(`key table slots: ${wrapsLeft} wrapped entries found no empty slot`);
    slots.flush();
    writer.endSection();
  } finally {
    main.close();
    wrap.close();
  }
}
