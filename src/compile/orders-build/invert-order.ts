import { mapU32Column, NumberColumnWriter } from '../spill/columns.js';

/**
 * The rank file of an order file: rank[ordinal] = position of the ordinal in the order (the
 * inverse permutation). Written front to back in slices of ordinals that fit the budget: each
 * slice is filled by one sequential read of the mapped order, so n ordinals in a budget of B
 * bytes take ceil(4n / B) reads of the order and no sort (at 30M and 64 MiB, two).
 */
export function invertOrderFile(orderPath: string, rankPath: string, budgetBytes: number): void {
  const order = mapU32Column(orderPath);
  const n = order.length;
  const sliceLength = Math.max(1, Math.min(n, Math.floor(budgetBytes / 4)));
  const slice = new Uint32Array(sliceLength);
  const out = new NumberColumnWriter(rankPath, 'u32');
  for (let base = 0; base < n; base += sliceLength) {
    const length = Math.min(sliceLength, n - base);
    for (let position = 0; position < n; position++) {
      const offset = order[position] - base;
      if (offset >= 0 && offset < length) slice[offset] = position;
    }
    out.pushAll(slice.subarray(0, length));
  }
  out.finish();
}
