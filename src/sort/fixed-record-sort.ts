/** Ranges this small are insertion-sorted on their remaining key words. */
const SMALL_RANGE = 24;
/** Bits of a radix digit at most; fewer when fewer bits vary. */
const DIGIT_BITS = 8;

/**
 * Sorts `count` records of `width` u32 words in `records` by their first `keyWords` words as
 * unsigned numbers, stably, in place (`scratch`, as large as the records, is the other half of
 * each pass).
 *
 * Most-significant word first: the records are sorted on key word 0, then each run tying on it
 * on word 1, and so on. The sort of a range on a word is an LSD radix sort whose digits (8 bits
 * at most) cover only the bits that vary within the range, so a word the range shares costs one
 * reading pass, and random keys (hashes) are settled by their first word: four passes, not two
 * for every key word. A small range is insertion-sorted on its remaining key words.
 */
export function sortFixedRecords(records: Uint32Array, scratch: Uint32Array, count: number, width: number, keyWords: number): void {
  const counts = new Uint32Array((1 << DIGIT_BITS) + 1);
  // Ranges to sort: start, end, key word; three numbers each.
  const pending: number[] = count > 1 ? [0, count, 0] : [];
  while (pending.length > 0) {
    const word = pending.pop()!;
    const end = pending.pop()!;
    const start = pending.pop()!;
    if (end - start <= SMALL_RANGE) {
      insertionSort(records, start, end, width, word, keyWords);
      continue;
    }
    let or = 0;
    let and = -1;
    for (let at = start * width + word; at < end * width; at += width) {
      or |= records[at];
      and &= records[at];
    }
    const diff = (or ^ and) >>> 0;
    if (diff === 0) {
      if (word + 1 < keyWords) pending.push(start, end, word + 1);
      continue;
    }
    radixSortOnWord(records, scratch, start, end, width, word, diff, counts);
    if (word + 1 === keyWords) continue;
    // Runs tying on this word go on to the next.
    for (let i = start; i < end; ) {
      const k = records[i * width + word];
      let j = i + 1;
      while (j < end && records[j * width + word] === k) j++;
      if (j - i > SMALL_RANGE) pending.push(i, j, word + 1);
      else if (j - i > 1) insertionSort(records, i, j, width, word + 1, keyWords);
      i = j;
    }
  }
}

/** LSD radix sort of records [start, end) on `word`, digits over the bits of `diff`; the result ends in `records`. */
function radixSortOnWord(
  records: Uint32Array,
  scratch: Uint32Array,
  start: number,
  end: number,
  width: number,
  word: number,
  diff: number,
  counts: Uint32Array,
): void {
  const low = 31 - Math.clz32(diff & -diff);
  const span = 32 - Math.clz32(diff) - low;
  const passes = Math.ceil(span / DIGIT_BITS);
  const bits = Math.ceil(span / passes);
  let from = records;
  let to = scratch;
  const first = start * width;
  const last = end * width;
  for (let pass = 0; pass < passes; pass++) {
    const shift = low + pass * bits;
    const mask = (1 << Math.min(bits, 32 - shift)) - 1;
    counts.fill(0, 0, mask + 2);
    for (let at = first + word; at < last; at += width) counts[((from[at] >>> shift) & mask) + 1]++;
    counts[0] = first;
    for (let d = 1; d <= mask; d++) counts[d] = counts[d - 1] + counts[d] * width;
    // counts[d] is now where digit d's records start, in words.
    if (width === 1) {
      for (let at = first; at < last; at++) {
        const v = from[at];
        to[counts[(v >>> shift) & mask]++] = v;
      }
    } else if (width === 2) {
      for (let at = first; at < last; at += 2) {
        const d = (from[at + word] >>> shift) & mask;
        const dest = counts[d];
        counts[d] = dest + 2;
        to[dest] = from[at];
        to[dest + 1] = from[at + 1];
      }
    } else if (width === 3) {
      for (let at = first; at < last; at += 3) {
        const d = (from[at + word] >>> shift) & mask;
        const dest = counts[d];
        counts[d] = dest + 3;
        to[dest] = from[at];
        to[dest + 1] = from[at + 1];
        to[dest + 2] = from[at + 2];
      }
    } else {
      for (let at = first; at < last; at += 4) {
        const d = (from[at + word] >>> shift) & mask;
        const dest = counts[d];
        counts[d] = dest + 4;
        to[dest] = from[at];
        to[dest + 1] = from[at + 1];
        to[dest + 2] = from[at + 2];
        to[dest + 3] = from[at + 3];
      }
    }
    [from, to] = [to, from];
  }
  if (from !== records) records.set(from.subarray(first, last), first);
}

/** The record being inserted. */
const held = new Uint32Array(4);

/** Stable insertion sort of records [start, end) on key words [word, keyWords) (earlier words are equal in the range). */
function insertionSort(records: Uint32Array, start: number, end: number, width: number, word: number, keyWords: number): void {
  for (let i = start + 1; i < end; i++) {
    const at = i * width;
    for (let k = 0; k < width; k++) held[k] = records[at + k];
    let j = i - 1;
    for (; j >= start; j--) {
      const jt = j * width;
      let k = word;
      while (k < keyWords && records[jt + k] === held[k]) k++;
      if (k === keyWords || records[jt + k] < held[k]) break;
      for (let c = 0; c < width; c++) records[jt + width + c] = records[jt + c];
    }
    const dest = (j + 1) * width;
    for (let k = 0; k < width; k++) records[dest + k] = held[k];
  }
}
