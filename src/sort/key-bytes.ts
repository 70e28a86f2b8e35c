/**
 * Byte keys read and compared in JavaScript, for the sorters' inner loops: byte loads put
 * together by hand run several times faster there than Buffer's readUInt32BE/LE (which check
 * their arguments on every call), and a short key compares faster in a loop than through a call
 * into Buffer.compare.
 */

/** Bytes past which comparing the rest in Buffer.compare beats a loop of 4-byte reads. */
const NATIVE_COMPARE_BYTES = 256;

/** The little-endian u32 at `at` (the caller knows 4 bytes are there). */
export function u32le(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

/** Writes `value` as a little-endian u32 at `at`. */
export function putU32le(b: Uint8Array, at: number, value: number): void {
  b[at] = value;
  b[at + 1] = value >>> 8;
  b[at + 2] = value >>> 16;
  b[at + 3] = value >>> 24;
}

/** Bytes up to which a loop copies faster than a call to TypedArray.set. */
const SHORT_COPY = 32;

/** Copies `source` into `target` at `at`. */
export function copyBytes(target: Uint8Array, at: number, source: Uint8Array): void {
  const n = source.length;
  if (n > SHORT_COPY) target.set(source, at);
  else for (let i = 0; i < n; i++) target[at + i] = source[i];
}

/** The big-endian u32 at `at` (the caller knows 4 bytes are there). */
export function u32be(b: Uint8Array, at: number): number {
  return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
}

/** Bytes [at, at+4) of `buffer` as a big-endian u32, zero from `end` on. */
export function wordAt(buffer: Uint8Array, at: number, end: number): number {
  if (at + 4 <= end) return u32be(buffer, at);
  let w = 0;
  for (let i = 0; i < 4; i++) w = (w << 8) | (at + i < end ? buffer[at + i] : 0);
  return w >>> 0;
}

/**
 * The byte order of a[aStart, aEnd) and b[bStart, bEnd) (negative, zero or positive), like
 * Buffer.compare, for keys known to agree on their first `from` bytes (0 if nothing is known).
 */
export function compareKeyBytes(a: Buffer, aStart: number, aEnd: number, b: Buffer, bStart: number, bEnd: number, from: number): number {
  const aLength = aEnd - aStart;
  const bLength = bEnd - bStart;
  const common = aLength < bLength ? aLength : bLength;
  let i = from;
  if (common - i > NATIVE_COMPARE_BYTES) return a.compare(b, bStart + i, bEnd, aStart + i, aEnd);
  for (; i + 4 <= common; i += 4) {
    const x = u32be(a, aStart + i);
    const y = u32be(b, bStart + i);
    if (x !== y) return x < y ? -1 : 1;
  }
  for (; i < common; i++) {
    const x = a[aStart + i];
    const y = b[bStart + i];
    if (x !== y) return x - y;
  }
  return aLength - bLength;
}
