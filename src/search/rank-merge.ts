import type { TermRange } from '../index-format/search/search-index.js';

/**
 * Walks the union of the postings of several terms in ascending rank (= popularity) order,
 * each rank once, lazily: a binary min-heap over one cursor per term, so asking for the best
 * 10 documents of a prefix with 50,000 terms costs one heap build and ten pops, not a sort.
 */
export class RankMerge {
  private readonly cursor: Uint32Array;
  private readonly end: Uint32Array;
  private readonly heap: Uint32Array;
  private size = 0;
  private last = -1;

  constructor(
    offsets: Uint32Array,
    private readonly postings: Uint32Array,
    ranges: readonly TermRange[],
  ) {
    let terms = 0;
    for (const r of ranges) terms += r.to - r.from;
    this.cursor = new Uint32Array(terms);
    this.end = new Uint32Array(terms);
    this.heap = new Uint32Array(terms);
    let k = 0;
    for (const r of ranges) {
      for (let t = r.from; t < r.to; t++) {
        if (offsets[t + 1] <= offsets[t]) continue;
        this.cursor[k] = offsets[t];
        this.end[k] = offsets[t + 1];
        this.heap[this.size++] = k++;
      }
    }
    for (let i = (this.size >> 1) - 1; i >= 0; i--) this.down(i);
  }

  /** The next rank, or -1 when every list is exhausted. */
  next(): number {
    while (this.size > 0) {
      const top = this.heap[0];
      const value = this.postings[this.cursor[top]];
      if (++this.cursor[top] < this.end[top]) this.down(0);
      else {
        this.heap[0] = this.heap[--this.size];
        if (this.size > 0) this.down(0);
      }
      if (value !== this.last) {
        this.last = value;
        return value;
      }
    }
    return -1;
  }

  /** The smallest rank not yet consumed, or -1. */
  peek(): number {
    return this.size > 0 ? this.key(0) : -1;
  }

  /**
   * Skips every rank below `target` (galloping through each list, so long runs cost a few
   * probes) and returns the smallest remaining rank, or -1.
   */
  seek(target: number): number {
    const postings = this.postings;
    while (this.size > 0) {
      const top = this.heap[0];
      let lo = this.cursor[top];
      if (postings[lo] >= target) break;
      const end = this.end[top];
      let step = 1;
      let hi = lo + 1;
      while (hi < end && postings[hi] < target) {
        lo = hi;
        step *= 2;
        hi = lo + step;
      }
      if (hi > end) hi = end;
      while (lo + 1 < hi) {
        const mid = (lo + hi) >>> 1;
        if (postings[mid] < target) lo = mid;
        else hi = mid;
      }
      if (hi < end) {
        this.cursor[top] = hi;
        this.down(0);
      } else {
        this.heap[0] = this.heap[--this.size];
        if (this.size > 0) this.down(0);
      }
    }
    return this.peek();
  }

  private key(slot: number): number {
    return this.postings[this.cursor[this.heap[slot]]];
  }

  private down(i: number): void {
    const n = this.size;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      let m = l;
      if (l + 1 < n && this.key(l + 1) < this.key(l)) m = l + 1;
      if (this.key(m) >= this.key(i)) return;
      const tmp = this.heap[i];
      this.heap[i] = this.heap[m];
      this.heap[m] = tmp;
      i = m;
    }
  }
}
