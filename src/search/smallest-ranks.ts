/** The `count` smallest values of order[from, to), ascending (a bounded max-heap, one pass). */
export function smallestRanks(order: Uint32Array, from: number, to: number, count: number): Uint32Array {
  const n = Math.min(count, to - from);
  if (n <= 0) return new Uint32Array(0);
  if (n === to - from) return order.slice(from, to).sort();
  const heap = order.slice(from, from + n);
  return keepSmallest(heap, order, from + n, to, null);
}

/** smallestRanks leaving out the values `hidden` has (a deletes set's documents), without copying the rest. */
export function smallestLiveRanks(order: Uint32Array, from: number, to: number, count: number, hidden: { has(rank: number): boolean }): Uint32Array {
  const heap = new Uint32Array(Math.max(0, Math.min(count, to - from)));
  let n = 0;
  let k = from;
  for (; k < to && n < heap.length; k++) if (!hidden.has(order[k])) heap[n++] = order[k];
  if (n < heap.length || k === to) return heap.subarray(0, n).sort();
  return keepSmallest(heap, order, k, to, hidden);
}

/** Makes `heap` (full) a max-heap, then keeps in it the smallest of it and order[from, to) but the hidden; ascending. */
function keepSmallest(heap: Uint32Array, order: Uint32Array, from: number, to: number, hidden: { has(rank: number): boolean } | null): Uint32Array {
  const n = heap.length;
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(heap, n, i);
  for (let k = from; k < to; k++) {
    if (order[k] < heap[0] && !hidden?.has(order[k])) {
      heap[0] = order[k];
      siftDown(heap, n, 0);
    }
  }
  return heap.sort();
}

function siftDown(heap: Uint32Array, n: number, i: number): void {
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
}
