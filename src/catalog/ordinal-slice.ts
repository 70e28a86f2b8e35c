/**
 * Ordinal lists (typed array views of the snapshot, or arrays) as plain arrays, by loops:
 * `Array.prototype.slice.call` on a typed array and `Array.from` with a map function take V8's
 * generic paths.
 */

/** Ordinals [from, to) of a list. */
export function sliceOrdinals(values: ArrayLike<number>, from: number, to: number): number[] {
  const start = Math.max(0, Math.min(from, values.length));
  const end = Math.max(start, Math.min(to, values.length));
  const out: number[] = new Array(end - start);
  for (let i = start; i < end; i++) out[i - start] = values[i];
  return out;
}

/** `each` of the first `count` ordinals of a list (all of them when it holds fewer). */
export function mapOrdinals<T>(values: ArrayLike<number>, count: number, each: (ordinal: number) => T): T[] {
  const out: T[] = new Array(Math.max(0, Math.min(count, values.length)));
  for (let i = 0; i < out.length; i++) out[i] = each(values[i]);
  return out;
}
