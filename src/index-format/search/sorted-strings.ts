import { differentBytesWithin } from './byte-diff.js';
import { FormatError } from '../errors.js';

/**
 * Sorted UTF-8 strings as the search index stores them (the terms, the normalised names):
 * one byte section and its offsets, compared and sliced as bytes, with a small table of
 * every SAMPLE_STEP-th string where a binary search spends its first steps.
 */

/** A half-open range of term ids [from, to). */
export interface TermRange {
  readonly from: number;
  readonly to: number;
}

/** UTF-8 strings stored as offsets into one byte section. */
export class StringTable {
  constructor(
    private readonly offsets: Uint32Array,
    private readonly bytes: Buffer,
    private readonly path: string,
    private readonly name: string,
  ) {}

  at(i: number): string {
    const from = this.offsets[i];
    const to = this.offsets[i + 1];
    if (to < from || to > this.bytes.length) throw new FormatError('E_FORMAT_RECORD', `${this.name} entry ${i} is out of bounds`, this.path);
    return this.bytes.toString('utf8', from, to);
  }

  byteLength(i: number): number {
    return this.offsets[i + 1] - this.offsets[i];
  }

  /** The bytes of string i (a view, not a copy). */
  raw(i: number): Buffer {
    return this.bytes.subarray(this.offsets[i], this.offsets[i + 1]);
  }

  /** See SearchIndex.nameDiffersWithin. */
  differsWithin(i: number, key: Uint8Array, slack: number): boolean {
    return differentBytesWithin(this.bytes, this.offsets[i], this.offsets[i + 1] - this.offsets[i], key, slack);
  }

  /** String i against `key` by bytes: < 0, 0 (equal) or > 0 (a string that starts with key and goes on is after it). */
  compare(i: number, key: Uint8Array): number {
    const d = this.comparePrefix(i, key);
    return d !== 0 ? d : this.byteLength(i) - key.length;
  }

  /** String i against `key` by bytes, looking at no more than key's length: < 0, 0 (i starts with key) or > 0. */
  comparePrefix(i: number, key: Uint8Array): number {
    const bytes = this.bytes;
    const from = this.offsets[i];
    const length = Math.min(this.offsets[i + 1] - from, key.length);
    for (let k = 0; k < length; k++) {
      const d = bytes[from + k] - key[k];
      if (d !== 0) return d;
    }
    return length < key.length ? -1 : 0;
  }
}

/** Every SAMPLE_STEP-th string of a sorted sequence is copied into a small table, where a search spends its first steps. */
const SAMPLE_STEP = 32;

/** The strings at every SAMPLE_STEP-th position of a sorted sequence, copied together (a few hundred KB per million). */
export class Samples {
  readonly table: StringTable;

  constructor(length: number, at: (position: number) => number, strings: StringTable) {
    const count = Math.ceil(length / SAMPLE_STEP);
    const offsets = new Uint32Array(count + 1);
    const parts: Buffer[] = [];
    let total = 0;
    for (let j = 0; j < count; j++) {
      const part = strings.raw(at(j * SAMPLE_STEP));
      parts.push(part);
      offsets[j + 1] = total += part.length;
    }
    this.table = new StringTable(offsets, Buffer.concat(parts, total), '(samples)', 'samples');
  }
}

/**
 * The range [from, to) of positions whose strings (`table` at `at(position)`, sorted by bytes)
 * start with `prefix`: two binary searches comparing bytes, no string decoded, their first
 * steps over `samples` (the strings at every SAMPLE_STEP-th position).
 */
export function prefixRangeOf(length: number, at: (position: number) => number, table: StringTable, prefix: Uint8Array, samples: Samples): TermRange {
  const from = firstFalse(
    length,
    (pos) => table.comparePrefix(at(pos), prefix) < 0,
    (j) => samples.table.comparePrefix(j, prefix) < 0,
  );
  const to = firstFalse(
    length,
    (pos) => table.comparePrefix(at(pos), prefix) <= 0,
    (j) => samples.table.comparePrefix(j, prefix) <= 0,
    from,
  );
  return { from, to };
}

/**
 * The first position where `test` (true, then false) is false; `sampled(j)` is test(j * SAMPLE_STEP).
 * `trueBelow`: positions known to test true (the end of a range whose start was just found):
 * the search gallops on from there, a few samples for a short range, instead of halving all.
 */
export function firstFalse(length: number, test: (position: number) => boolean, sampled: (j: number) => boolean, trueBelow = 0): number {
  let lo = Math.ceil(trueBelow / SAMPLE_STEP);
  let hi = Math.ceil(length / SAMPLE_STEP);
  if (lo > 0) {
    // Samples lo, lo + 1, lo + 3, lo + 7, ... until one is false.
    let bound = 1;
    while (lo + bound - 1 < hi && sampled(lo + bound - 1)) bound *= 2;
    hi = Math.min(hi, lo + bound - 1);
    lo += bound >>> 1;
  }
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sampled(mid)) lo = mid + 1;
    else hi = mid;
  }
  // Sample lo is the first false one: the answer lies after sample lo - 1 and at or before sample lo.
  let from = Math.max(trueBelow, lo === 0 ? 0 : (lo - 1) * SAMPLE_STEP + 1);
  let to = Math.min(length, lo * SAMPLE_STEP);
  while (from < to) {
    const mid = (from + to) >>> 1;
    if (test(mid)) from = mid + 1;
    else to = mid;
  }
  return from;
}
