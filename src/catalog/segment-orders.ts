import { lowerBound } from '../index-format/u32.js';
import { storedPosition, type OrdinalColumn } from './live-lists.js';

/**
 * A precomputed order over a segmented snapshot (docs/segments.md, "Orders"): the base's order
 * less its stale entries (resources a delta holds again or took out), with the entries of the
 * order patch inserted. The newest delta stores the patch: every resource the deltas hold, in
 * order, each with its insertion point `at`, the position in the base's order of the first base
 * entry that follows it. Entry k is found by two binary searches, never a walk from the start.
 */
export class SegmentedOrder implements OrdinalColumn {
  readonly length: number;
  /** Base positions of the stale entries, ascending. */
  private readonly stale: Uint32Array;
  /** Merged position of each patch entry, ascending. */
  private readonly placed: Uint32Array;

  constructor(
    private readonly base: OrdinalColumn,
    baseRank: ArrayLike<number>,
    staleOrdinals: ArrayLike<number>,
    private readonly patch: Uint32Array,
    at: Uint32Array,
  ) {
    ({ stale: this.stale, placed: this.placed } = placePatch((g) => baseRank[g], staleOrdinals, at));
    this.length = base.length - this.stale.length + patch.length;
  }

  /** The base position of live base entry b: b plus the stale entries before it. */
  private basePosition(b: number): number {
    return storedPosition(this.stale, b);
  }

  get(k: number): number {
    if (!(k >= 0 && k < this.length)) throw new RangeError(`index ${k} outside array of ${this.length}`);
    if (this.all) return this.all[k];
    const j = lowerBound(this.placed, k); // the patch entries placed before k
    if (j < this.placed.length && this.placed[j] === k) return this.patch[j];
    return this.base.get(this.basePosition(k - j));
  }

  slice(from: number, to: number): Uint32Array {
    const a = Math.max(0, Math.min(from, this.length));
    const b = Math.max(a, Math.min(to, this.length));
    const out = new Uint32Array(b - a);
    for (let k = a; k < b; k++) out[k - a] = this.get(k);
    return out;
  }

  /**
   * Makes get() one read: every ordinal in merged order, kept (4 bytes per resource; at 10M songs
   * 40 MB). For the popularity order, which every search hit over segments is read back through
   * (catalog-search.ts, hitOrdinal): two binary searches and a read of the base's order per hit
   * were a tenth of a default-form search's time.
   */
  materialize(): void {
    const all = new Uint32Array(this.length);
    this.walk((ordinal, k) => {
      all[k] = ordinal;
    });
    this.all = all;
  }

  private all: Uint32Array | null = null;

  /** The merged position of every ordinal of `size` (stale ones keep 0), in one pass over the order. */
  ranks(size: number): Uint32Array {
    const ranks = new Uint32Array(size);
    this.walk((ordinal, k) => {
      ranks[ordinal] = k;
    });
    return ranks;
  }

  /** Each ordinal with its merged position, in merged order. */
  private walk(visit: (ordinal: number, k: number) => void): void {
    const CHUNK = 1 << 16;
    let j = 0;
    let s = 0;
    let k = 0;
    for (let from = 0; from < this.base.length; from += CHUNK) {
      const chunk = this.base.slice(from, Math.min(this.base.length, from + CHUNK));
      for (let i = 0; i < chunk.length; i++) {
        const position = from + i;
        while (j < this.patch.length && this.placed[j] === k) visit(this.patch[j++], k++);
        if (s < this.stale.length && this.stale[s] === position) {
          s++;
          continue;
        }
        visit(chunk[i], k++);
      }
    }
    while (j < this.patch.length) visit(this.patch[j++], k++);
  }
}

/**
 * Where an order patch's entries land once the stale base entries are left out: the stale
 * entries' base positions, ascending, and each patch entry's merged position (its insertion point,
 * less the stale entries before it, plus the patch entries before it).
 */
export function placePatch(
  baseRankOf: (ordinal: number) => number,
  staleOrdinals: ArrayLike<number>,
  at: ArrayLike<number>,
): { stale: Uint32Array; placed: Uint32Array } {
  const stale = new Uint32Array(staleOrdinals.length);
  for (let i = 0; i < stale.length; i++) stale[i] = baseRankOf(staleOrdinals[i]);
  stale.sort();
  const placed = new Uint32Array(at.length);
  for (let j = 0, s = 0; j < at.length; j++) {
    while (s < stale.length && stale[s] < at[j]) s++;
    placed[j] = at[j] - s + j;
  }
  return { stale, placed };
}
