import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareKeyBytes, u32be, u32le, wordAt } from './key-bytes.js';

describe('key bytes', () => {
  it('compareKeyBytes agrees with Buffer.compare, from any byte the keys share, short keys and long (past the native cutoff)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), fc.nat(), fc.nat({ max: 7 }), (shared, x, y, cut, offset) => {
        const a = Buffer.concat([Buffer.alloc(offset, 9), shared, x]);
        const b = Buffer.concat([shared, y, Buffer.alloc(3, 1)]);
        const from = shared.length === 0 ? 0 : cut % (shared.length + 1);
        const got = compareKeyBytes(a, offset, a.length, b, 0, b.length - 3, from);
        expect(Math.sign(got)).toBe(Buffer.compare(a.subarray(offset), b.subarray(0, b.length - 3)));
      }),
      { numRuns: 500, seed: 3, endOnFailure: true },
    );
  });

  it('reads words as Buffer does, zero past the end', () => {
    const b = Buffer.from([0xff, 0x01, 0x80, 0x7f, 0x00, 0xaa]);
    expect(u32le(b, 1)).toBe(b.readUInt32LE(1));
    expect(u32be(b, 0)).toBe(b.readUInt32BE(0));
    expect(wordAt(b, 2, 6)).toBe(b.readUInt32BE(2));
    expect(wordAt(b, 4, 6)).toBe(0x00aa0000);
    expect(wordAt(b, 5, 5)).toBe(0);
  });
});
