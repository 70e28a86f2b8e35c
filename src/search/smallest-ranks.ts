/** The `count` smallest values of order[from, to), ascending (a bounded max-heap, one pass). */
export function smallestRanks(order: Uint32Array, from: number, to: number, count: number): Uint32Array {
  const n = Math.min(count, to - from);
  if (n <= 0) return new Uint32Array(0);
  if (n === to - from) return order.slice(from, to).sort();
  const heap = order.slice(from, from + n);
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const m = l + 1 < n && heap[l + 1] > heap[l] ? l + 1 : l;
      if (heap[m] <= heap[i]) return;
      const tmp = heap[i];
      heap[i] = heap[m];
      heap[m] = tmp;
      i = m;
    }
  };
  for (let i = (n >> 1) - 1; i >= 0; i--) down(i);
  for (let k = from + n; k < to; k++) {
    if (order[k] < heap[0]) {
      heap[0] = order[k];
      down(0);
    }
  }
  return heap.sort();
}
