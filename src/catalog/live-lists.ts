import type { KeyTable } from '../index-format/index.js';
import { bitSet } from './deletes.js';

/**
 * Lists as served under a deletes set: the stored lists with the taken-down resources left out,
 * counted and paged as if they had never been there (no short or empty page in the middle).
 * With no deletes the catalog hands out the stored lists themselves.
 */

/** Targets of each source, as the catalog serves them (an Adjacency, or a LiveRelation over one). */
export interface Relation {
  readonly sources: number;
  count(source: number): number;
  targetsOf(source: number, from?: number, to?: number): Uint32Array;
}

/** A stored u32 list (an order): a U32Column, or a LiveOrder over one. */
export interface OrdinalColumn {
  readonly length: number;
  get(i: number): number;
  slice(from: number, to: number): Uint32Array;
}

/** Key probes: a KeyTable, or a LiveKeys over one. */
export type KeyLookup = Pick<KeyTable, 'get' | 'getAll' | 'touch'>;

/**
 * A relation whose targets leave out the taken-down (`deleted`: one bit per target ordinal). A
 * source `mayHoldDeleted` says holds none is served its stored list as it is; the others' counts
 * are kept once counted.
 */
export class LiveRelation implements Relation {
  /** Per source, its count once counted, else -1 (made on first use). */
  private counts: Int32Array | null = null;

  constructor(
    private readonly stored: Relation,
    private readonly deleted: Uint8Array,
    private readonly mayHoldDeleted: (source: number) => boolean = () => true,
  ) {}

  get sources(): number {
    return this.stored.sources;
  }

  count(source: number): number {
    if (!this.mayHoldDeleted(source)) return this.stored.count(source);
    const counts = (this.counts ??= new Int32Array(this.stored.sources).fill(-1));
    if (counts[source] < 0) {
      const all = this.stored.targetsOf(source);
      let n = 0;
      for (let i = 0; i < all.length; i++) if (!bitSet(this.deleted, all[i])) n++;
      counts[source] = n;
    }
    return counts[source];
  }

  /** The live targets [from, to): the stored list read only as far as it takes to find them, a window at a time. */
  targetsOf(source: number, from = 0, to = Number.MAX_SAFE_INTEGER): Uint32Array {
    if (!this.mayHoldDeleted(source)) return this.stored.targetsOf(source, from, to);
    const start = Math.max(0, from);
    const stored = this.stored.count(source);
    if (to <= start || stored === 0) return new Uint32Array(0);
    const out = new Uint32Array(Math.min(to - start, stored));
    let n = 0;
    let live = 0;
    for (let at = 0; at < stored && live < to; ) {
      // As many as are still wanted (all of them when none is taken down), at least a few dozen.
      const window = this.stored.targetsOf(source, at, at + Math.max(64, to - live));
      for (let i = 0; i < window.length && live < to; i++) {
        if (bitSet(this.deleted, window[i])) continue;
        if (live >= start) out[n++] = window[i];
        live++;
      }
      at += window.length;
    }
    return n === out.length ? out : out.slice(0, n);
  }
}

/**
 * An order without the taken-down: entry k is the k-th live ordinal of the stored order.
 * `positions` are the stored positions of the taken-down (ascending), so finding where entry k
 * lives is a binary search, not a walk from the start.
 */
export class LiveOrder implements OrdinalColumn {
  readonly length: number;

  constructor(
    private readonly stored: OrdinalColumn,
    private readonly positions: Uint32Array,
    private readonly deleted: Uint8Array,
  ) {
    this.length = stored.length - positions.length;
  }

  /** The stored position of live entry k: k plus the taken-down before it. */
  private position(k: number): number {
    return storedPosition(this.positions, k);
  }

  get(i: number): number {
    if (!(i >= 0 && i < this.length)) throw new RangeError(`index ${i} outside array of ${this.length}`);
    return this.stored.get(this.position(i));
  }

  slice(from: number, to: number): Uint32Array {
    const a = Math.max(0, Math.min(from, this.length));
    const b = Math.max(a, Math.min(to, this.length));
    const out = new Uint32Array(b - a);
    let filled = 0;
    let at = this.position(a);
    while (filled < out.length && at < this.stored.length) {
      const chunk = this.stored.slice(at, at + (out.length - filled) + 16);
      for (let i = 0; i < chunk.length && filled < out.length; i++) if (!bitSet(this.deleted, chunk[i])) out[filled++] = chunk[i];
      at += chunk.length;
    }
    return out;
  }
}

/** Key probes that do not find the taken-down. */
export class LiveKeys implements KeyLookup {
  constructor(
    private readonly stored: KeyLookup,
    private readonly deleted: Uint8Array,
  ) {}

  get(key: string): number {
    const ordinal = this.stored.get(key);
    return ordinal >= 0 && bitSet(this.deleted, ordinal) ? -1 : ordinal;
  }

  getAll(key: string): readonly number[] {
    return this.stored.getAll(key).filter((o) => !bitSet(this.deleted, o));
  }

  touch(keys: readonly string[]): number {
    return this.stored.touch(keys);
  }
}

/**
 * The stored position of the k-th entry left when the entries at `skipped` (stored positions,
 * ascending) are taken out: k plus those before it. positions[j] - j never decreases, so the
 * first j with positions[j] - j > k counts them.
 */
export function storedPosition(skipped: Uint32Array, k: number): number {
  let lo = 0;
  let hi = skipped.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (skipped[mid] - mid > k) hi = mid;
    else lo = mid + 1;
  }
  return k + lo;
}
