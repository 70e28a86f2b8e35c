import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxCodeUnitBytes, writeCodeUnitBytes, writeCodeUnitBytesFromUtf8 } from './code-unit-bytes.js';

const bytesOf = (text: string) => {
  const out = Buffer.alloc(maxCodeUnitBytes(text));
  return out.subarray(0, writeCodeUnitBytes(text, out, 0));
};
const bytesFromUtf8 = (text: string) => {
  const utf8 = Buffer.from(text, 'utf8');
  const out = Buffer.alloc(utf8.length * 2);
  return out.subarray(0, writeCodeUnitBytesFromUtf8(utf8, out, 0));
};
const sign = (x: number) => (x < 0 ? -1 : x > 0 ? 1 : 0);
// Characters from every UTF-8 length, both sides of the surrogates, and pairs.
const text = fc.string({
  unit: fc.constantFrom('a', 'b', '\u0000', '\u007f', '\u00e9', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uffff', '😀', '𝐀', '\u{10ffff}'),
  maxLength: 8,
});

describe('code-unit order bytes', () => {
  it('compare as JS strings compare (UTF-16 code units), and are plain UTF-8 without surrogates', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(sign(Buffer.compare(bytesOf(a), bytesOf(b)))).toBe(sign(a < b ? -1 : a > b ? 1 : 0));
        expect(bytesFromUtf8(a)).toEqual(bytesOf(a));
        if (!/[\ud800-\udfff]/.test(a)) expect(bytesOf(a)).toEqual(Buffer.from(a, 'utf8'));
      }),
      { numRuns: 2000, seed: 3, endOnFailure: true },
    );
  });

  it('put a character past U+FFFF before U+E000-U+FFFF, where UTF-8 puts it after', () => {
    expect(Buffer.compare(bytesOf('😀'), bytesOf('\uffff'))).toBe(-1);
    expect(Buffer.compare(Buffer.from('😀'), Buffer.from('\uffff'))).toBe(1);
  });
});
