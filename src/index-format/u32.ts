import { endianness } from 'node:os';

/** The format is little-endian; typed-array views of it assume a little-endian host. */
export const HOST_IS_LITTLE_ENDIAN = endianness() === 'LE';
if (!HOST_IS_LITTLE_ENDIAN) throw new Error('omm snapshots need a little-endian host');

/** The bytes of a Uint32Array as they are stored (little-endian), without a copy. */
export function u32Bytes(values: Uint32Array): Buffer {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

/** How many values of an ascending array are below `value` (a binary search). */
export function lowerBound(values: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether two lists of ordinals hold the same values in the same order. */
export function sameOrdinals(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A Uint32Array that grows by doubling; `view()` is the filled part. */
export class GrowableU32 {
  private data: Uint32Array;
  length = 0;

  constructor(initial = 1024) {
    this.data = new Uint32Array(Math.max(16, initial));
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Uint32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  get(i: number): number {
    return this.data[i];
  }

  view(): Uint32Array {
    return this.data.subarray(0, this.length);
  }
}
