import { FormatError } from '../errors.js';
import { hashKey } from '../tables/key-table.js';
import { termHashCapacity } from './search-sections.js';
import type { TermRange } from './sorted-strings.js';

/**
 * Name runs: where each normalised name held by NAME_RUN_MIN documents or more lies in
 * `names.order`, found by its hash instead of two binary searches over the names (each a
 * couple of dozen reads far apart: about 4.5 us at 10M songs, the matcher's first cost). Stored
 * in the first-pages shard (first-pages.ts) as one section, u32 little-endian:
 * - `runs.hash`: nameRunCapacity(runs) slots of [hashKey(name), from + 1, to], linear probing
 *   from slot hash & (slots - 1), runs inserted in name order; an empty slot is [0, 0, 0].
 * A name not there is held by fewer than NAME_RUN_MIN documents: one binary search and a look
 * at its next few neighbours find its run (search-index.ts, exactNameRange).
 */
export const NAME_RUN_MIN = 5;

/** Words per slot. */
const SLOT = 3;

/** Slots for `count` runs: a power of two, at least 16, at most half full, as `terms.hash`. */
export const nameRunCapacity = termHashCapacity;

/** The `runs.hash` section of runs given in name order: hashKey of each name, and its [from, to) in `names.order`. */
export function nameRunTable(hashes: ArrayLike<number>, froms: ArrayLike<number>, tos: ArrayLike<number>): Uint32Array {
  const capacity = nameRunCapacity(hashes.length);
  const mask = capacity - 1;
  const table = new Uint32Array(capacity * SLOT);
  for (let i = 0; i < hashes.length; i++) {
    let slot = hashes[i] & mask;
    while (table[slot * SLOT + 1] !== 0) slot = (slot + 1) & mask;
    table[slot * SLOT] = hashes[i];
    table[slot * SLOT + 1] = froms[i] + 1;
    table[slot * SLOT + 2] = tos[i];
  }
  return table;
}

/** Reads `runs.hash`. */
export class NameRuns {
  private readonly mask: number;

  constructor(
    private readonly slots: Uint32Array,
    path: string,
  ) {
    const capacity = slots.length / SLOT;
    if (!Number.isInteger(capacity) || capacity < 16 || (capacity & (capacity - 1)) !== 0) {
      throw new FormatError('E_FORMAT_HEADER', `runs.hash holds ${slots.length} words: not a power-of-two table of [hash, from + 1, to] slots`, path);
    }
    this.mask = capacity - 1;
  }

  /**
   * The run of `name` in `names.order`, or null when it is held by fewer than NAME_RUN_MIN
   * documents. `startsRun(from)`: whether the name at position `from` is `name` (a hash alone
   * may be another name's).
   */
  find(name: string, startsRun: (from: number) => boolean): TermRange | null {
    const slots = this.slots;
    const hash = hashKey(name);
    for (let slot = hash & this.mask, probes = 0; probes <= this.mask; slot = (slot + 1) & this.mask, probes++) {
      const from = slots[slot * SLOT + 1];
      if (from === 0) return null;
      if (slots[slot * SLOT] === hash && startsRun(from - 1)) return { from: from - 1, to: slots[slot * SLOT + 2] };
    }
    return null;
  }
}
