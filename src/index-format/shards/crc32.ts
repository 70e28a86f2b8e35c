import * as zlib from 'node:zlib';

type Crc32 = (data: Uint8Array, value?: number) => number;

/** zlib.crc32 (Node >= 20.15): native, fast, and the same CRC-32 as gzip and PNG. */
export const crc32: Crc32 = (zlib as unknown as { crc32: Crc32 }).crc32;
if (typeof crc32 !== 'function') {
  throw new Error('omm needs Node.js >= 20.15 (zlib.crc32)');
}
