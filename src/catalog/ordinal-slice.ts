/**
 * Ordinals [from, to) of a list (a typed array view of the snapshot, or an array) as a plain
 * array. A loop: `Array.prototype.slice.call` on a typed array takes V8's generic path.
 */
export function sliceOrdinals(values: ArrayLike<number>, from: number, to: number): number[] {
  const start = Math.max(0, Math.min(from, values.length));
  const end = Math.max(start, Math.min(to, values.length));
  const out: number[] = new Array(end - start);
  for (let i = start; i < end; i++) out[i - start] = values[i];
  return out;
}
