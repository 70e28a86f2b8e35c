import { writeCodeUnitBytesFromUtf8 } from './code-unit-bytes.js';

/**
 * A local id as bytes whose byte order is local-id order (compareLocalIds in sort-keys.ts):
 * decimal ids (`^(0|[1-9][0-9]{0,14})$`) first, by value, as a 0x00 tag and the value in 8
 * big-endian bytes; then every other id by code units, as a 0x01 tag and its code-unit order
 * bytes. Read from the id's UTF-8 bytes, so no string is made for an id.
 */

const ZERO = 0x30;
const NINE = 0x39;

/** Bytes writeLocalIdKey may need for an id of `utf8Length` bytes. */
export function maxLocalIdKeyBytes(utf8Length: number): number {
  return 1 + Math.max(8, utf8Length * 2);
}

/** The id's decimal value when it is a decimal id, else -1. */
function decimalValue(utf8: Buffer): number {
  const n = utf8.length;
  if (n === 0 || n > 15 || (utf8[0] === ZERO && n > 1)) return -1;
  let value = 0;
  for (let i = 0; i < n; i++) {
    const c = utf8[i];
    if (c < ZERO || c > NINE) return -1;
    value = value * 10 + (c - ZERO);
  }
  return value;
}

/** Writes the key of the id whose UTF-8 bytes are `utf8` at `out[0..]`; returns its length. */
export function writeLocalIdKey(utf8: Buffer, out: Buffer): number {
  const value = decimalValue(utf8);
  if (value >= 0) {
    out[0] = 0;
    out.writeUInt32BE(Math.floor(value / 2 ** 32), 1);
    out.writeUInt32BE(value % 2 ** 32, 5);
    return 9;
  }
  out[0] = 1;
  return 1 + writeCodeUnitBytesFromUtf8(utf8, out, 1);
}
