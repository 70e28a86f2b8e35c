import { compareKeyBytes, u32le, wordAt } from './key-bytes.js';

/** Bytes of a record's header in an ExternalSorter arena: key length, value length (u32 LE each). */
export const RECORD_HEAD = 8;

/** Ranges this small are insertion-sorted on their whole keys (no words read). */
const TINY_RANGE = 6;
/** Ranges this small are insertion-sorted on a word rather than radix-sorted. */
const SMALL_RANGE = 32;
/** Bits of a radix digit: 257 counters, cheap to clear for a small range, and cache-friendly scatters for a large one. */
const DIGIT_BITS = 8;

/**
 * Orders the records of an ExternalSorter arena by their key bytes, stably: the sort moves the
 * records' byte offsets in the arena (from `index`, in the order they were added, so ties keep
 * offset order), and reads a record straight from its offset, with no lookup in `index` between.
 *
 * Most-significant word first: keys are read as big-endian 4-byte words (zero past a key's end),
 * two at a time (one random read of a record gives 8 bytes). A range of records whose keys agree
 * up to some word is sorted on that word; each run of records tying on it goes on to the next
 * word. The sort of a range on a word is an LSD radix sort with 8-bit digits over only the bits
 * that vary within the range (keys with shared prefixes, small numbers: constant digits are never
 * counted nor moved), so what a range costs follows its size; a small range is insertion-sorted
 * on the word, a tiny one on its whole keys. Random keys (hashes) are mostly settled by their
 * first word: four passes moving three arrays, where sorting on 8 bytes at once took eight.
 *
 * The work arrays (24 bytes a record) are kept from one sort to the next, grown to the largest
 * count sorted; `release()` lets them go.
 */
export class ArenaKeySort {
  private order = new Uint32Array(0);
  /** The word a range sorts on, and the one after it (read with it), by position in `order`. */
  private first = new Uint32Array(0);
  private second = new Uint32Array(0);
  /** The other halves of the ping-pong passes. */
  private orderOut = new Uint32Array(0);
  private firstOut = new Uint32Array(0);
  private secondOut = new Uint32Array(0);
  private readonly counts = new Uint32Array((1 << DIGIT_BITS) + 1);
  /** Ranges still to sort: start, end, depth in words (the keys agree before it), and 1 when the word at that depth is already in `second`. */
  private readonly pending: number[] = [];

  /** The records' arena offsets (`index[0, count)`, increasing) in key order, ties in offset order; valid until the next sort. */
  sort(arena: Buffer, index: Uint32Array, count: number): Uint32Array {
    if (this.order.length < count) {
      this.order = new Uint32Array(count);
      this.orderOut = new Uint32Array(count);
      this.first = new Uint32Array(count);
      this.firstOut = new Uint32Array(count);
      this.second = new Uint32Array(count);
      this.secondOut = new Uint32Array(count);
    }
    const order = this.order;
    order.set(index.subarray(0, count));
    const pending = this.pending;
    pending.length = 0;
    if (count > 1) pending.push(0, count, 0, 0);
    while (pending.length > 0) {
      const loaded = pending.pop()! === 1;
      const depth = pending.pop()!;
      const end = pending.pop()!;
      const start = pending.pop()!;
      if (end - start <= TINY_RANGE) insertionSortKeys(arena, order, start, end, depth * 4);
      else if (loaded) this.sortSecond(arena, start, end, depth);
      else this.sortFirst(arena, start, end, depth);
    }
    return order.subarray(0, count);
  }

  /** Lets the work arrays go (the last order too). */
  release(): void {
    this.order = this.orderOut = this.first = this.firstOut = this.second = this.secondOut = new Uint32Array(0);
  }

  /** Reads words `depth` and `depth + 1` of order[start, end) and sorts the range on the first of them. */
  private sortFirst(arena: Buffer, start: number, end: number, depth: number): void {
    const { order, first, second } = this;
    let at = depth * 4;
    for (;;) {
      let firstOr = 0;
      let firstAnd = -1;
      let secondOr = 0;
      let secondAnd = -1;
      let live = 0;
      for (let i = start; i < end; i++) {
        const p = order[i];
        const keyStart = p + RECORD_HEAD;
        const length = u32le(arena, p);
        const keyEnd = keyStart + length;
        const f = wordAt(arena, keyStart + at, keyEnd);
        const s = wordAt(arena, keyStart + at + 4, keyEnd);
        first[i] = f;
        second[i] = s;
        firstOr |= f;
        firstAnd &= f;
        secondOr |= s;
        secondAnd &= s;
        if (length > at) live++;
      }
      if (live === 0) {
        sortByLength(arena, order, start, end);
        return;
      }
      if ((firstOr ^ firstAnd) !== 0) {
        this.sortOnWord(start, end, first, this.firstOut, second, this.secondOut, (firstOr ^ firstAnd) >>> 0);
        this.queueTies(arena, start, end, first, at / 4 + 1, 1);
        return;
      }
      if ((secondOr ^ secondAnd) !== 0) {
        this.sortOnWord(start, end, second, this.secondOut, null, null, (secondOr ^ secondAnd) >>> 0);
        this.queueTies(arena, start, end, second, at / 4 + 2, 0);
        return;
      }
      // All 8 bytes agree: read the next 8 without sorting.
      at += 8;
    }
  }

  /** Sorts order[start, end) on word `depth`, already in `second`. */
  private sortSecond(arena: Buffer, start: number, end: number, depth: number): void {
    const second = this.second;
    let or = 0;
    let and = -1;
    for (let i = start; i < end; i++) {
      or |= second[i];
      and &= second[i];
    }
    if ((or ^ and) === 0) {
      this.sortFirst(arena, start, end, depth + 1);
      return;
    }
    this.sortOnWord(start, end, second, this.secondOut, null, null, (or ^ and) >>> 0);
    this.queueTies(arena, start, end, second, depth + 1, 0);
  }

  /** Runs of order[start, end) tying on `key` go on to word `depth` (`loaded`: it is in `second`); tiny ones are sorted now. */
  private queueTies(arena: Buffer, start: number, end: number, key: Uint32Array, depth: number, loaded: number): void {
    const pending = this.pending;
    for (let i = start; i < end; ) {
      const k = key[i];
      let j = i + 1;
      while (j < end && key[j] === k) j++;
      if (j - i > TINY_RANGE) pending.push(i, j, depth, loaded);
      else if (j - i > 1) insertionSortKeys(arena, this.order, i, j, depth * 4);
      i = j;
    }
  }

  /**
   * Stable sort of order[start, end) on `key` (whose bits outside `diff` agree in the whole range), moving `key` and
   * `carry` (when given) along: insertion for a small range, else LSD radix with 8-bit digits over the varying bits.
   */
  private sortOnWord(
    start: number,
    end: number,
    key: Uint32Array,
    keyOut: Uint32Array,
    carry: Uint32Array | null,
    carryOut: Uint32Array | null,
    diff: number,
  ): void {
    const m = end - start;
    if (m <= SMALL_RANGE) {
      insertionSortWord(this.order, key, carry, start, end);
      return;
    }
    const counts = this.counts;
    let ord: Uint32Array = this.order.subarray(start, end);
    let out: Uint32Array = this.orderOut.subarray(start, end);
    let k: Uint32Array = key.subarray(start, end);
    let kOut: Uint32Array = keyOut.subarray(start, end);
    let c: Uint32Array = carry === null ? k : carry.subarray(start, end);
    let cOut: Uint32Array = carryOut === null ? kOut : carryOut.subarray(start, end);
    // Digits cover only the bits that differ somewhere in the range, as few and as even as DIGIT_BITS allows.
    const low = 31 - Math.clz32(diff & -diff);
    const span = 32 - Math.clz32(diff) - low;
    const passes = Math.ceil(span / DIGIT_BITS);
    const bits = Math.ceil(span / passes);
    for (let pass = 0; pass < passes; pass++) {
      const shift = low + pass * bits;
      const mask = (1 << Math.min(bits, 32 - shift)) - 1;
      counts.fill(0, 0, mask + 2);
      for (let i = 0; i < m; i++) counts[((k[i] >>> shift) & mask) + 1]++;
      for (let d = 1; d <= mask; d++) counts[d] += counts[d - 1];
      if (carry === null) {
        for (let i = 0; i < m; i++) {
          const w = k[i];
          const to = counts[(w >>> shift) & mask]++;
          out[to] = ord[i];
          kOut[to] = w;
        }
      } else {
        for (let i = 0; i < m; i++) {
          const w = k[i];
          const to = counts[(w >>> shift) & mask]++;
          out[to] = ord[i];
          kOut[to] = w;
          cOut[to] = c[i];
        }
      }
      [ord, out, k, kOut, c, cOut] = [out, ord, kOut, k, cOut, c];
    }
    if (passes % 2 === 1) {
      this.order.set(ord, start);
      key.set(k, start);
      if (carry !== null) carry.set(c, start);
    }
  }
}

/** Stable insertion sort of order[start, end) by `key`, moving `key` and `carry` along. */
function insertionSortWord(order: Uint32Array, key: Uint32Array, carry: Uint32Array | null, start: number, end: number): void {
  for (let i = start + 1; i < end; i++) {
    const k = key[i];
    const r = order[i];
    const c = carry === null ? 0 : carry[i];
    let j = i - 1;
    while (j >= start && key[j] > k) {
      key[j + 1] = key[j];
      order[j + 1] = order[j];
      if (carry !== null) carry[j + 1] = carry[j];
      j--;
    }
    key[j + 1] = k;
    order[j + 1] = r;
    if (carry !== null) carry[j + 1] = c;
  }
}

/** Stable insertion sort of order[start, end) (arena offsets) by whole keys, which agree on their first `from` bytes. */
function insertionSortKeys(arena: Buffer, order: Uint32Array, start: number, end: number, from: number): void {
  for (let i = start + 1; i < end; i++) {
    const r = order[i];
    let j = i - 1;
    while (j >= start && compareRecords(arena, order[j], r, from) > 0) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = r;
  }
}

/** Byte order of the keys of the records at arena offsets `a` and `b`, which agree on their first `from` bytes. */
function compareRecords(arena: Buffer, a: number, b: number, from: number): number {
  const aStart = a + RECORD_HEAD;
  const bStart = b + RECORD_HEAD;
  return compareKeyBytes(arena, aStart, aStart + u32le(arena, a), arena, bStart, bStart + u32le(arena, b), from);
}

/**
 * Records whose keys have all ended and agree on every byte up to there (zero-padded): each is a
 * prefix of the longer ones, so the shorter comes first; equal lengths stay in offset order.
 */
function sortByLength(arena: Buffer, order: Uint32Array, start: number, end: number): void {
  const first = u32le(arena, order[start]);
  let same = true;
  for (let i = start + 1; i < end && same; i++) same = u32le(arena, order[i]) === first;
  if (same) return;
  order.subarray(start, end).sort((a, b) => u32le(arena, a) - u32le(arena, b) || a - b);
}
