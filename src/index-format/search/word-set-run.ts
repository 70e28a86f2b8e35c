import type { HiddenDocs } from './hidden-docs.js';
import type { SearchIndex } from './search-index.js';
import { hashRun, wordSetHash } from './search-keys.js';

/**
 * The documents of one index keyed under one word set (search-keys.ts): the run of `keys.ranks`
 * under the set's hash whose second hash agrees, ascending by rank. Read in order, counted, or
 * asked whether it holds a rank; `holds` keeps a cursor that only moves forward, so ranks asked in
 * ascending order cost a gallop each from the last one (`gallop`), not a search of the whole run.
 */
export class WordSetRun {
  private readonly ranks: Uint32Array;
  private readonly checks: Uint32Array;
  private readonly check: number;
  private readonly from: number;
  private readonly to: number;
  private cursor: number;

  constructor(index: SearchIndex, sortedIds: ArrayLike<number>) {
    const run = hashRun(index.u32('keys.hashes'), wordSetHash(sortedIds, 0));
    this.ranks = index.u32('keys.ranks');
    this.checks = index.u32('keys.checks');
    this.check = wordSetHash(sortedIds, 1);
    this.from = run.from;
    this.to = run.to;
    this.cursor = run.from;
  }

  /** Its documents not hidden, counted up to `cap`. */
  countInService(cap: number, hidden: HiddenDocs | null): number {
    let n = 0;
    for (let i = this.from; i < this.to && n < cap; i++) if (this.checks[i] === this.check && !hidden?.has(this.ranks[i])) n++;
    return n;
  }

  /** Calls `visit` with the rank of each of its documents not hidden, ascending, while it returns true. */
  forEach(hidden: HiddenDocs | null, visit: (rank: number) => boolean): void {
    for (let i = this.from; i < this.to; i++) {
      const rank = this.ranks[i];
      if (this.checks[i] !== this.check || hidden?.has(rank)) continue;
      if (!visit(rank)) return;
    }
  }

  /** Its documents not hidden, ascending, one rank a call (-1 past the last): forEach as a pull, for a merge of several. */
  reader(hidden: HiddenDocs | null): () => number {
    let i = this.from;
    return () => {
      while (i < this.to) {
        const at = i++;
        if (this.checks[at] === this.check && !hidden?.has(this.ranks[at])) return this.ranks[at];
      }
      return -1;
    };
  }

  /** Whether the document of rank `rank` is keyed under the set; ranks must be asked in ascending order. */
  holds(rank: number): boolean {
    const at = gallop(this.ranks, this.cursor, this.to, rank);
    this.cursor = at;
    for (let i = at; i < this.to && this.ranks[i] === rank; i++) if (this.checks[i] === this.check) return true;
    return false;
  }
}

/**
 * Values [from, to) of an ascending array (a range of `names.order` of one exact name, whose
 * ranks are in popularity order), asked whether they hold a value, in ascending order.
 */
export class AscendingRun {
  private cursor: number;

  constructor(
    private readonly values: ArrayLike<number>,
    from: number,
    private readonly to: number,
  ) {
    this.cursor = from;
  }

  holds(value: number): boolean {
    this.cursor = gallop(this.values, this.cursor, this.to, value);
    return this.cursor < this.to && this.values[this.cursor] === value;
  }
}

/** The first position of [from, to) of an ascending array whose value is `value` or more (`to` when none): steps doubling from `from`, then a binary search of the last. */
export function gallop(values: ArrayLike<number>, from: number, to: number, value: number): number {
  let step = 1;
  let lo = from;
  let hi = from;
  while (hi < to && values[hi] < value) {
    lo = hi + 1;
    hi = Math.min(to, hi + step);
    step *= 2;
  }
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
