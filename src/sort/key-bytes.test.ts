import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareKeyBytes, copyBytes, putU32le, u32be, u32le, wordAt } from './key-bytes.js';

describe('key bytes', () => {
  it('compareKeyBytes agrees with Buffer.compare, from any byte the keys share, short keys and long (past the native cutoff)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 600 }),
        fc.uint8Array({ maxLength: 300 }),
        fc.uint8Array({ maxLength: 300 }),
        fc.nat(),
        fc.nat({ max: 7 }),
        (shared, x, y, cut, offset) => {
          const a = Buffer.concat([Buffer.alloc(offset, 9), shared, x]);
          const b = Buffer.concat([shared, y, Buffer.alloc(3, 1)]);
          const from = shared.length === 0 ? 0 : cut % (shared.length + 1);
          const got = compareKeyBytes(a, offset, a.length, b, 0, b.length - 3, from);
          expect(Math.sign(got)).toBe(Buffer.compare(a.subarray(offset), b.subarray(0, b.length - 3)));
        },
      ),
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

  it('writes words and copies bytes as Buffer does, short and long', () => {
    const b = Buffer.alloc(8);
    putU32le(b, 2, 0xdeadbeef);
    expect(b.readUInt32LE(2)).toBe(0xdeadbeef);
    for (const n of [0, 1, 31, 32, 33, 100]) {
      const target = Buffer.alloc(n + 5, 0xee);
      const source = Buffer.from(Array.from({ length: n }, (_, i) => i & 0xff));
      copyBytes(target, 3, source);
      expect(target.subarray(3, 3 + n)).toEqual(source);
      expect([...target.subarray(0, 3), ...target.subarray(3 + n)]).toEqual([0xee, 0xee, 0xee, 0xee, 0xee]);
    }
  });
});
