import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LzEncoder, lzDecode, lzDecodedLength, LZ_OUTPUT_SLACK } from './lz-codec.js';
import { createLzDecoder } from './lz-decoder.js';
import { lzWasmModule } from './lz-wasm.js';

/** Records that look like the snapshot's: JSON with repeated keys, shared words and numbers. */
const words = [
  'Love',
  'Night',
  'Über',
  '夜',
  'the',
  '"id":"s',
  '","type":"song"',
  'https://cdn.example.com/stream/',
  '.flac',
  '{"name":',
  ',',
  '0',
  '12',
  '\\n',
];
const record = fc
  .array(fc.oneof(fc.constantFrom(...words), fc.string({ maxLength: 6 }), fc.nat().map(String)), { maxLength: 120 })
  .map((parts) => Buffer.from(parts.join('')));
const bytes = fc.uint8Array({ maxLength: 3000 });

function decodeWith(kind: 'wasm' | 'js', dictionary: Uint8Array, packed: Uint8Array, maxLength = 1 << 20): Buffer | null {
  const previous = process.env.OMM_LZ_DECODER;
  process.env.OMM_LZ_DECODER = kind === 'js' ? 'js' : '';
  try {
    const decoder = createLzDecoder(dictionary, maxLength);
    const n = decoder.decode(packed, 0, packed.length);
    return n < 0 ? null : Buffer.from(decoder.output.subarray(decoder.outputAt, decoder.outputAt + n));
  } finally {
    process.env.OMM_LZ_DECODER = previous;
  }
}

describe('omm-lz', () => {
  it('has the WebAssembly decoder on this runtime', () => {
    expect(lzWasmModule()).not.toBeNull();
  });

  it('gives back every record, through both decoders, whatever the dictionary (records alike, random bytes, empty, long runs)', () => {
    let saved = 0;
    let total = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            record,
            bytes,
            fc.constant(Buffer.alloc(0)),
            fc.nat({ max: 70_000 }).map((n) => Buffer.alloc(n, 'ab')),
          ),
          { minLength: 1, maxLength: 40 },
        ),
        fc.nat({ max: 20 }),
        (records, dictionaryCount) => {
          const dictionary = Buffer.concat(records.slice(0, dictionaryCount)).subarray(0, 60_000);
          const encoder = new LzEncoder(dictionary);
          for (const r of records) {
            const packed = Buffer.from(encoder.encode(r));
            expect(lzDecodedLength(packed, 0, packed.length)).toBe(r.length);
            expect(decodeWith('js', dictionary, packed)?.equals(r)).toBe(true);
            expect(decodeWith('wasm', dictionary, packed)?.equals(r)).toBe(true);
            saved += r.length - packed.length;
            total += r.length;
          }
        },
      ),
      { numRuns: 60, seed: 7, endOnFailure: true },
    );
    expect(saved / total).toBeGreaterThan(0.5);
  });

  it('compresses a record like those of its dictionary to a fraction, copying keys and words out of the dictionary', () => {
    const view = (i: number) =>
      Buffer.from(
        JSON.stringify({
          id: `s${i}`,
          type: 'song',
          attributes: {
            name: `Night ${i % 7} Love`,
            isrc: `US00009${String(i).padStart(5, '0')}`,
            artworkUrl: `https://img.example.com/albums/al${i >> 3}/{w}x{h}.jpg`,
          },
        }),
      );
    const dictionary = Buffer.concat(Array.from({ length: 300 }, (_, i) => view(i))).subarray(0, 60_000);
    const encoder = new LzEncoder(dictionary);
    const r = view(123_456);
    expect(encoder.encode(r).length).toBeLessThan(r.length / 3);
  });

  it('a match may run from the dictionary on into the output, and overlap what it writes', () => {
    // Hand-made: literals "xy", then a match of 10 at distance 4: 2 dictionary bytes ("CD"), then "xy" and what it wrote.
    const dictionary = Buffer.from('ABCD');
    const packed = Buffer.from([12, 0x26, 0x78, 0x79, 4, 0, 0x00]); // the last token: no literals, the end
    expect(decodeWith('js', dictionary, packed)?.toString()).toBe('xyCDxyCDxyCD');
    expect(decodeWith('wasm', dictionary, packed)?.toString()).toBe('xyCDxyCDxyCD');
  });

  it('turns any damaged record into -1 or a record of its stated length, never an error, a hang or a write out of bounds, the same in both decoders', () => {
    const dictionary = Buffer.from(words.join('').repeat(50));
    const encoder = new LzEncoder(dictionary);
    fc.assert(
      fc.property(record, fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { maxLength: 4 }), fc.nat(), (r, flips, cut) => {
        const packed = Buffer.from(encoder.encode(r));
        for (const [at, value] of flips) if (packed.length > 0) packed[at % packed.length] = value;
        const damaged = packed.subarray(0, packed.length - (cut % 3));
        const js = decodeWith('js', dictionary, damaged, 4096);
        const wasm = decodeWith('wasm', dictionary, damaged, 4096);
        expect(wasm === null ? null : wasm.toString('hex')).toBe(js === null ? null : js.toString('hex'));
        if (js) expect(js.length).toBe(lzDecodedLength(damaged, 0, damaged.length));
      }),
      { numRuns: 2000, seed: 11, endOnFailure: true },
    );
  });

  it('refuses a record longer than the shard says any is, before reserving room for it', () => {
    const encoder = new LzEncoder(Buffer.alloc(0));
    const packed = Buffer.from(encoder.encode(Buffer.alloc(5000, 1)));
    expect(decodeWith('wasm', Buffer.alloc(0), packed, 4999)).toBeNull();
    expect(decodeWith('js', Buffer.alloc(0), packed, 4999)).toBeNull();
    expect(decodeWith('wasm', Buffer.alloc(0), packed, 5000)?.equals(Buffer.alloc(5000, 1))).toBe(true);
  });

  it('the reference decoder leaves the output past the record alone (the WebAssembly one may use LZ_OUTPUT_SLACK bytes)', () => {
    const encoder = new LzEncoder(Buffer.alloc(0));
    const r = Buffer.from('abcabcabcabcabc');
    const out = Buffer.alloc(r.length + LZ_OUTPUT_SLACK, 0xee);
    const packed = encoder.encode(r);
    expect(lzDecode(packed, 0, packed.length, Buffer.alloc(0), out, 0)).toBe(r.length);
    expect(out.subarray(r.length).every((b) => b === 0xee)).toBe(true);
  });
});
