import { mapU32Column, NumberColumnWriter } from '../spill/columns.js';

/**
 * The rank file of an order file: rank[ordinal] = position of the ordinal in the order (the
 * inverse permutation). Written front to back in slices of ordinals: each slice is filled by
 * one sequential read of the mapped order, so n ordinals with a slice of s take ceil(n / s)
 * reads of the order and no sort (at 30M ordinals and a 64 MiB slice, two).
 */
export function invertOrderFile(orderPath: string, rankPath: string, slice: Uint32Array): void {
  const order = mapU32Column(orderPath);
  const n = order.length;
  const out = new NumberColumnWriter(rankPath, 'u32');
  for (let base = 0; base < n; base += slice.length) {
    const length = Math.min(slice.length, n - base);
    for (let position = 0; position < n; position++) {
      const offset = order[position] - base;
      if (offset >= 0 && offset < length) slice[offset] = position;
    }
    out.pushAll(slice.subarray(0, length));
  }
  out.finish();
}

/** A slice for invertOrderFile: as many ordinals as the budget holds, no more than there are. Made once and reused, so inverting many orders leaves no garbage behind. */
export function rankSlice(count: number, budgetBytes: number): Uint32Array {
  return new Uint32Array(Math.max(1, Math.min(count, Math.floor(budgetBytes / 4))));
}
