/**
 * A binary min-heap of source numbers for a k-way merge: `less(a, b)` compares the current
 * records of sources a and b (breaking ties by number keeps a merge stable). The top is the
 * source whose record comes next.
 */
export class SourceHeap {
  private readonly heap: number[];

  constructor(
    sources: readonly number[],
    private readonly less: (a: number, b: number) => boolean,
  ) {
    this.heap = [...sources];
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  get size(): number {
    return this.heap.length;
  }

  /** The source whose record comes next (only when size > 0). */
  get top(): number {
    return this.heap[0];
  }

  /** After the top source moved to its next record: `exhausted` when it has none left. */
  advanced(exhausted: boolean): void {
    const heap = this.heap;
    if (exhausted) {
      heap[0] = heap[heap.length - 1];
      heap.pop();
    }
    if (heap.length > 1) this.down(0);
  }

  private down(from: number): void {
    const heap = this.heap;
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && this.less(heap[l], heap[m])) m = l;
      if (r < heap.length && this.less(heap[r], heap[m])) m = r;
      if (m === i) return;
      const t = heap[i];
      heap[i] = heap[m];
      heap[m] = t;
      i = m;
    }
  }
}
