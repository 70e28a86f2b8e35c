import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LzEncoder } from './lz-codec.js';
import { createRecordEncoder, nativeLzEncoderAvailable } from './lz-encoder.js';

const words = ['Love', 'Night', 'Über', '夜', '"id":"s', '","type":"song"', 'https://cdn.example.com/stream/', '.flac', '{"name":', '0', '12'];
const record = fc
  .array(fc.oneof(fc.constantFrom(...words), fc.string({ maxLength: 6 }), fc.nat().map(String)), { maxLength: 150 })
  .map((parts) => Buffer.from(parts.join('')));
const anyRecord = fc.oneof(
  record,
  fc.uint8Array({ maxLength: 3000 }),
  fc.constant(Buffer.alloc(0)),
  fc.nat({ max: 70_000 }).map((n) => Buffer.alloc(n, 'ab')),
);

describe.skipIf(!nativeLzEncoderAvailable())(
  `native omm-lz encoder (native/lz.c)${nativeLzEncoderAvailable() ? '' : ': skipped, the native addon was not built'}`,
  () => {
    it('writes the same bytes as LzEncoder for every record and dictionary (records alike, random bytes, empty, long runs, a dictionary at its limit)', () => {
      fc.assert(
        fc.property(fc.array(anyRecord, { minLength: 1, maxLength: 40 }), fc.nat({ max: 20 }), (records, dictionaryCount) => {
          const dictionary = Buffer.concat(records.slice(0, dictionaryCount)).subarray(0, 65_534);
          const js = new LzEncoder(dictionary);
          const native = createRecordEncoder(dictionary);
          expect(native).not.toBeInstanceOf(LzEncoder);
          for (const r of records) expect(Buffer.from(native.encode(r))).toEqual(Buffer.from(js.encode(r)));
        }),
        { numRuns: 80, seed: 11, endOnFailure: true },
      );
    });

    it('refuses a dictionary the format cannot address', () => {
      expect(() => createRecordEncoder(Buffer.alloc(65_535))).toThrow(/65534/);
    });
  },
);

describe('record encoder choice', () => {
  it('OMM_LZ=js gives the JavaScript encoder', () => {
    process.env.OMM_LZ = 'js';
    try {
      expect(createRecordEncoder(Buffer.from('abcd'))).toBeInstanceOf(LzEncoder);
    } finally {
      delete process.env.OMM_LZ;
    }
  });
});
