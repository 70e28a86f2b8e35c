import type { NameRuns } from './name-runs.js';
import { firstFalse, type StringTable, type TermRange } from './sorted-strings.js';

/**
 * The name table: `names.hashes` holds, for every distinct normalised name, [nameBytesHash, from,
 * to) of its run in `names.order`, sorted by hash then position (u32 little-endian, three words
 * an entry). Hashes are uniform, so a search that guesses where a hash lies from its value
 * (interpolation) finds it in two or three reads, where a binary search over the sorted names
 * takes a couple of dozen reads far apart (the name's offsets, then its bytes, at each step).
 * Snapshots compiled before it lack the section and are searched as before (the stored runs of
 * the names many documents hold, then a binary search).
 */

/** FNV-1a 32 over a normalised name's UTF-8 bytes. */
export function nameBytesHash(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

/** What exactNameRangeOf reads: the index's name sections and the helpers it keeps. */
export interface NameSections {
  /** `names.order`. */
  readonly order: Uint32Array;
  /** The names by rank (`names.offsets`, `names.bytes`). */
  readonly names: StringTable;
  /** The names at every SAMPLE_STEP-th position of the order. */
  readonly samples: StringTable;
  /** `names.hashes`, or null when the snapshot has none. */
  readonly table: Uint32Array | null;
}

/** Names an exact-name run is looked for one by one before a binary search for its end. */
const NEAR_RUN = 4;

/**
 * Positions in `names.order` of the documents whose normalised name is `name` (an empty range
 * where it would be); `runs`: the stored runs of the names many documents hold, or null.
 */
export function exactNameRangeOf(s: NameSections, name: string, runs: NameRuns | null): TermRange {
  const { order, names, samples, table } = s;
  const key = Buffer.from(name, 'utf8');
  const startsRun = (from: number) => from < order.length && names.compare(order[from], key) === 0;
  // A name many documents hold: its stored run (name-runs.ts), a small table; then the name table.
  const held = runs?.find(name, startsRun) ?? (table ? runByHash(table, nameBytesHash(key), startsRun) : null);
  if (held) return held;
  // Not held (or held by a few documents, without a name table): the first name not before it by a binary search.
  const from = firstFalse(
    order.length,
    (pos) => names.comparePrefix(order[pos], key) < 0,
    (j) => samples.comparePrefix(j, key) < 0,
  );
  if (table) return { from, to: from };
  // Its end, looked for next to it first: most names are held by a few documents.
  const after = (pos: number) => pos >= order.length || names.compare(order[pos], key) > 0;
  for (let to = from; to < from + NEAR_RUN; to++) if (after(to)) return { from, to };
  const to = firstFalse(
    order.length,
    (pos) => names.compare(order[pos], key) <= 0,
    (j) => samples.compare(j, key) <= 0,
    from + NEAR_RUN,
  );
  return { from, to };
}

/** Words per entry of the name table. */
const ENTRY = 3;
/** Guesses by value before the search halves instead (a table whose hashes are not uniform). */
const GUESSES = 8;

/** The run of the name whose hash is `hash` and whose run starts where `startsRun` says, or null. */
export function runByHash(table: Uint32Array, hash: number, startsRun: (from: number) => boolean): TermRange | null {
  let at = firstEntryOf(table, hash);
  for (; at < table.length / ENTRY && table[at * ENTRY] === hash; at++) {
    if (startsRun(table[at * ENTRY + 1])) return { from: table[at * ENTRY + 1], to: table[at * ENTRY + 2] };
  }
  return null;
}

/** The first entry whose hash is not below `hash` (the entry count when none). */
function firstEntryOf(table: Uint32Array, hash: number): number {
  let lo = 0;
  let hi = table.length / ENTRY;
  for (let guess = 0; guess < GUESSES && lo < hi; guess++) {
    const low = table[lo * ENTRY];
    const high = table[(hi - 1) * ENTRY];
    if (hash <= low) return lo;
    if (hash > high) return hi;
    // low < hash <= high: the entry at the guess is within [lo, hi - 1].
    const at = lo + Math.floor(((hash - low) / (high - low + 1)) * (hi - 1 - lo));
    if (table[at * ENTRY] < hash) lo = at + 1;
    else hi = at;
  }
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (table[mid * ENTRY] < hash) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
