import { FormatError } from '../errors.js';
import { hashRun } from './search-keys.js';

/**
 * Name groups: for each large group of documents that share one normalised name (a run of
 * `names.order`), which of its first NAME_GROUP_SCAN documents credit each artist term. The
 * matcher's first stage asks "the documents named exactly so whose artists hold every word of
 * the credit, most popular first"; without this it tests each document of the group in turn,
 * and a common title ("Love") is thousands of documents. Stored in the first-pages shard
 * (first-pages.ts), u32 little-endian:
 * - `groups.starts`: per group, its first position in `names.order`, ascending;
 * - `groups.offsets`: per group + 1, where its block starts in `groups.blocks` (in u32 words);
 * - `groups.blocks`: per group, a block: T (its distinct artist terms), the T term ids
 *   ascending, T + 1 offsets into the block's positions, then the positions (u16, two to a word,
 *   the first in the low half), each term's ascending. A position p is the document at
 *   `names.order[start + p]`; p < min(group size, NAME_GROUP_SCAN).
 * Groups of fewer than NAME_GROUP_MIN documents are not stored: their scan is short.
 */
export const NAME_GROUP_MIN = 128;
/** Documents of a group looked at: the matcher's first stage looks no further (u16 positions). */
export const NAME_GROUP_SCAN = 5_000;

/**
 * The block of one group, from its documents' artist terms: `termsOf(p)` lists the artist term
 * ids of the document at position p (repeats allowed), for p < `size`.
 */
export function nameGroupBlock(size: number, termsOf: (position: number, add: (term: number) => void) => void): Uint32Array {
  if (size > NAME_GROUP_SCAN) throw new Error(`name group of ${size} documents: at most ${NAME_GROUP_SCAN} are stored`);
  // term * 2^16 + position sorts by term, then position, and stays exact in a double.
  const keys: number[] = [];
  for (let p = 0; p < size; p++) termsOf(p, (term) => keys.push(term * 65_536 + p));
  const sorted = Float64Array.from(keys).sort();
  const terms: number[] = [];
  const offsets: number[] = [];
  const positions: number[] = [];
  let last = -1;
  for (const key of sorted) {
    if (key === last) continue;
    last = key;
    const term = Math.floor(key / 65_536);
    if (terms.length === 0 || terms[terms.length - 1] !== term) {
      terms.push(term);
      offsets.push(positions.length);
    }
    positions.push(key % 65_536);
  }
  offsets.push(positions.length);
  const t = terms.length;
  const block = new Uint32Array(1 + t + t + 1 + ((positions.length + 1) >>> 1));
  block[0] = t;
  block.set(terms, 1);
  block.set(offsets, 1 + t);
  const at = 2 + 2 * t;
  for (let i = 0; i < positions.length; i++) block[at + (i >>> 1)] |= positions[i] << ((i & 1) * 16);
  return block;
}

/** Reads the name groups of a first-pages shard. */
export class NameGroups {
  private readonly positions: Uint16Array;

  constructor(
    private readonly starts: Uint32Array,
    private readonly offsets: Uint32Array,
    private readonly blocks: Uint32Array,
    path: string,
  ) {
    if (offsets.length !== starts.length + 1 || offsets[starts.length] !== blocks.length) {
      throw new FormatError('E_FORMAT_HEADER', 'name-group sections do not match their counts', path);
    }
    this.positions = new Uint16Array(blocks.buffer, blocks.byteOffset, blocks.length * 2);
  }

  get size(): number {
    return this.starts.length;
  }

  /**
   * Positions (ascending, relative to `start`) of the first `limit` documents of the group
   * starting at `start` in `names.order` whose artists hold every term of `ids`; null when no
   * group starts there (a small one: scan it) or `ids` is empty.
   */
  holdingAll(start: number, ids: ArrayLike<number>, limit: number): number[] | null {
    const g = ids.length === 0 ? -1 : exact(hashRun(this.starts, start));
    if (g < 0) return null;
    const blocks = this.blocks;
    const base = this.offsets[g];
    const t = blocks[base];
    const firstOffset = base + 1 + t;
    const at = 2 * (base + 2 + 2 * t);
    const from: number[] = [];
    const to: number[] = [];
    for (let i = 0; i < ids.length; i++) {
      const k = exact(hashRun(blocks, ids[i], base + 1, base + 1 + t));
      if (k < 0) return [];
      from.push(at + blocks[firstOffset + k - base - 1]);
      to.push(at + blocks[firstOffset + k - base]);
    }
    const out: number[] = [];
    // The shortest list drives; the others are walked alongside it.
    let driver = 0;
    for (let i = 1; i < from.length; i++) if (to[i] - from[i] < to[driver] - from[driver]) driver = i;
    const positions = this.positions;
    next: for (let k = from[driver]; k < to[driver] && out.length < limit; k++) {
      const p = positions[k];
      for (let i = 0; i < from.length; i++) {
        if (i === driver) continue;
        while (from[i] < to[i] && positions[from[i]] < p) from[i]++;
        if (from[i] === to[i]) break next;
        if (positions[from[i]] !== p) continue next;
      }
      out.push(p);
    }
    return out;
  }
}

/** The position of a value held once (group starts, a block's term ids are unique), or -1. */
function exact(run: { from: number; to: number }): number {
  return run.to > run.from ? run.from : -1;
}
