/**
 * A number as two u32 words whose unsigned order is the number's order, for FixedSorter: the
 * IEEE 754 bits with the sign bit set for positives and all bits flipped for negatives. As
 * orderByNumber in orders.ts: -0 and 0 are one key, and NaN (missing) sorts last whether the
 * order ascends or descends.
 */

const f64 = new Float64Array(1);
const words = new Uint32Array(f64.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HI = LITTLE_ENDIAN ? 1 : 0;
const LO = 1 - HI;

/** The key of a missing value: after every number in both directions. */
export const MISSING_WORD = 0xffffffff;

/** Writes the key of `value` into out[0] (high word) and out[1] (low word); descending flips the order of numbers. */
export function numberKeyWords(value: number, descending: boolean, out: Uint32Array): void {
  if (value !== value) {
    out[0] = MISSING_WORD;
    out[1] = MISSING_WORD;
    return;
  }
  f64[0] = value === 0 ? 0 : value;
  let hi = words[HI];
  let lo = words[LO];
  if (hi & 0x80000000) {
    hi = ~hi;
    lo = ~lo;
  } else hi |= 0x80000000;
  // A number's key is never all ones (that would be a NaN's bits), in either direction.
  if (descending) {
    hi = ~hi;
    lo = ~lo;
  }
  out[0] = hi >>> 0;
  out[1] = lo >>> 0;
}
