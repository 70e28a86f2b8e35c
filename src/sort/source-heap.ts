/**
 * The sources of a k-way merge ranked by their current records: `less(a, b)` compares the
 * current records of sources a and b (breaking ties by number keeps a merge stable). The top is
 * the source whose record comes next.
 *
 * A tree of losers rather than a binary heap: when the top source moves on, its new record
 * plays once against the loser kept at each node on its leaf's path to the root, log2(k)
 * comparisons, where a heap's sift-down makes two a level.
 */
export class SourceHeap {
  /** Leaves are nodes k..2k-1 (source `leaves[i]` at node k + i); node j < k keeps the loser of its match, as a leaf index. */
  private readonly losers: Int32Array;
  private readonly leaves: readonly number[];
  /** Leaves whose source has no record left: they lose every match. */
  private readonly done: Uint8Array;
  /** Leaf index of the winner. */
  private winner = 0;
  private live: number;

  constructor(
    sources: readonly number[],
    private readonly less: (a: number, b: number) => boolean,
  ) {
    const k = sources.length;
    this.leaves = [...sources];
    this.live = k;
    this.done = new Uint8Array(k);
    this.losers = new Int32Array(Math.max(1, k));
    if (k === 0) return;
    // Winners of each node's match, bottom up; each node keeps its loser.
    const winners = new Int32Array(2 * k);
    for (let i = 0; i < k; i++) winners[k + i] = i;
    for (let node = k - 1; node >= 1; node--) {
      const x = winners[2 * node];
      const y = winners[2 * node + 1];
      const xWins = this.beats(x, y);
      winners[node] = xWins ? x : y;
      this.losers[node] = xWins ? y : x;
    }
    this.winner = k === 1 ? 0 : winners[1];
  }

  get size(): number {
    return this.live;
  }

  /** The source whose record comes next (only when size > 0). */
  get top(): number {
    return this.leaves[this.winner];
  }

  /** After the top source moved to its next record: `exhausted` when it has none left. */
  advanced(exhausted: boolean): void {
    let candidate = this.winner;
    if (exhausted) {
      this.done[candidate] = 1;
      this.live--;
    }
    const k = this.leaves.length;
    const losers = this.losers;
    for (let node = (candidate + k) >> 1; node >= 1; node >>= 1) {
      const other = losers[node];
      if (this.beats(other, candidate)) {
        losers[node] = candidate;
        candidate = other;
      }
    }
    this.winner = candidate;
  }

  /** Whether leaf x's record comes before leaf y's (an exhausted leaf never does). */
  private beats(x: number, y: number): boolean {
    if (this.done[x]) return false;
    if (this.done[y]) return true;
    return this.less(this.leaves[x], this.leaves[y]);
  }
}
