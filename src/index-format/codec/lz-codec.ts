/**
 * omm-lz: how one record of a compressed record table is stored (docs/format.md, "Compressed
 * record tables"). A byte-aligned LZ77 in the manner of LZ4's block format, with a preset
 * dictionary: the first records of the table, stored once per shard. A record shares most of its
 * bytes with its neighbours (keys, URL prefixes, genre names, words of titles), so most of it is
 * a copy out of the dictionary, and a copy costs three bytes whatever its length.
 *
 * A record is:
 * - its decoded length, unsigned LEB128;
 * - sequences, each: a token byte (high nibble: how many literals follow; low nibble: match
 *   length minus 4; a nibble of 15 is continued by bytes added to it, each 255 but the last),
 *   the literals, then, unless the record ends after them, the match distance as u16
 *   little-endian (1..65535). The match copies, forward and byte by byte (so a match may overlap
 *   what it writes), from that far back in the dictionary followed by the output so far.
 *
 * No entropy coding: decoding is copying, so a view decodes in well under a microsecond
 * (lz-wasm.ts). Measured against deflate with the same dictionary in docs/scale.md.
 */

export const LZ_MIN_MATCH = 4;
/**
 * The shortest match the encoder writes (the format allows 4): a 4-byte match saves one byte and
 * costs the decoder a sequence. Measured on the 1M catalog's views, 5 makes them no larger and
 * decoding 10 % faster; 6 decodes faster again but adds 7 bytes to a song record.
 */
const ENCODER_MIN_MATCH = 5;
export const LZ_MAX_DISTANCE = 65_535;
/**
 * The encoder's hash tables, of 4-byte prefixes: 2^16 buckets for the dictionary, 2^12 for the
 * record at hand. Positions in the dictionary fit in 16 bits, so its tables are Uint16Arrays:
 * the encoder's tables and dictionary then stay in a core's L2 cache (they are what it waits on).
 */
const DICTIONARY_HASH_SHIFT = 32 - 16;
const RECORD_HASH_BITS = 12;
const RECORD_HASH_SHIFT = 32 - RECORD_HASH_BITS;
const HASH_MULTIPLIER = 2654435761;
/** No position: the end of a dictionary chain. */
const NONE = 0xffff;

/** Bytes a decoder's output needs past the decoded length: the WebAssembly decoder copies 16 bytes at a time. */
export const LZ_OUTPUT_SLACK = 32;

/**
 * Compresses records against one dictionary. The dictionary's 4-byte prefixes are hashed once,
 * into chains; each record's own prefixes go into a second table, reset per record by a
 * generation stamp rather than cleared. At each position the longer of the record's last
 * occurrence and the best of `depth` dictionary occurrences wins, greedily (depth 4: measured
 * against 1 and 16 in docs/scale.md, the size for the time).
 */
export class LzEncoder {
  private window: Uint8Array;
  private words: DataView;
  private readonly dictionaryHead = new Uint16Array(1 << (32 - DICTIONARY_HASH_SHIFT)).fill(NONE);
  private readonly dictionaryPrevious: Uint16Array;
  private readonly recordHead = new Int32Array(1 << RECORD_HASH_BITS);
  private readonly recordStamp = new Int32Array(1 << RECORD_HASH_BITS);
  private generation = 0;
  private out = new Uint8Array(1024);

  constructor(
    readonly dictionary: Uint8Array,
    private readonly depth = 4,
  ) {
    if (dictionary.length >= NONE) throw new RangeError(`an omm-lz dictionary holds at most ${NONE - 1} bytes`);
    this.window = new Uint8Array(dictionary.length + 4096);
    this.window.set(dictionary);
    this.words = new DataView(this.window.buffer);
    this.dictionaryPrevious = new Uint16Array(Math.max(1, dictionary.length));
    for (let i = 0; i + LZ_MIN_MATCH <= dictionary.length; i++) {
      const h = Math.imul(this.words.getUint32(i, true), HASH_MULTIPLIER) >>> DICTIONARY_HASH_SHIFT;
      this.dictionaryPrevious[i] = this.dictionaryHead[h];
      this.dictionaryHead[h] = i;
    }
  }

  /** The compressed record: a view of the encoder's buffer, valid until the next call. */
  encode(record: Uint8Array): Uint8Array {
    const D = this.dictionary.length;
    this.reserve(record.length);
    const w = this.window;
    const words = this.words;
    const out = this.out;
    const { dictionaryHead, dictionaryPrevious, recordHead, recordStamp, depth } = this;
    if (++this.generation === 0x7fffffff) {
      recordStamp.fill(0);
      this.generation = 1;
    }
    const generation = this.generation;
    w.set(record, D);
    const end = D + record.length;
    const lastStart = end - LZ_MIN_MATCH;
    let o = 0;
    for (let n = record.length; ; n >>>= 7) {
      if (n < 0x80) {
        out[o++] = n;
        break;
      }
      out[o++] = (n & 0x7f) | 0x80;
    }
    let i = D;
    let literalsFrom = D;
    while (i <= lastStart) {
      const word = words.getUint32(i, true);
      const hashed = Math.imul(word, HASH_MULTIPLIER);
      const r = hashed >>> RECORD_HASH_SHIFT;
      let bestLength = 0;
      let bestFrom = 0;
      if (recordStamp[r] === generation) {
        const p = recordHead[r];
        if (i - p <= LZ_MAX_DISTANCE && words.getUint32(p, true) === word) {
          bestLength = matchLength(w, words, p, i, end - i);
          bestFrom = p;
        }
      }
      recordHead[r] = i;
      recordStamp[r] = generation;
      let p = dictionaryHead[hashed >>> DICTIONARY_HASH_SHIFT];
      for (let tries = depth; p !== NONE && tries > 0 && i - p <= LZ_MAX_DISTANCE; tries--) {
        // A candidate can only do better if it also matches at bestLength: most are out after one byte.
        if (words.getUint32(p, true) === word && w[p + bestLength] === w[i + bestLength]) {
          // A dictionary match stops at the dictionary's end.
          const l = matchLength(w, words, p, i, end - i < D - p ? end - i : D - p);
          if (l > bestLength) {
            bestLength = l;
            bestFrom = p;
          }
        }
        p = dictionaryPrevious[p];
      }
      if (bestLength < ENCODER_MIN_MATCH) {
        i++;
        continue;
      }
      o = this.sequence(o, literalsFrom, i, bestLength, i - bestFrom);
      i += bestLength;
      literalsFrom = i;
      // One prefix inside the match goes into the table too (as LZ4 does), for repeats in the record.
      const inside = i - 2;
      if (inside <= lastStart) {
        const hi = Math.imul(words.getUint32(inside, true), HASH_MULTIPLIER) >>> RECORD_HASH_SHIFT;
        recordHead[hi] = inside;
        recordStamp[hi] = generation;
      }
    }
    o = this.sequence(o, literalsFrom, end, 0, 0);
    return this.out.subarray(0, o);
  }

  /** Writes one sequence: the literals [from, to) of the window, then the match (none when its length is 0). */
  private sequence(o: number, from: number, to: number, matchLength: number, distance: number): number {
    const out = this.out;
    const literals = to - from;
    const extra = matchLength - LZ_MIN_MATCH;
    out[o++] = ((literals < 15 ? literals : 15) << 4) | (matchLength === 0 ? 0 : extra < 15 ? extra : 15);
    if (literals >= 15) o = writeLengthTail(out, o, literals - 15);
    // A loop, not set(subarray()): most runs are a byte or two, and a subarray costs more than that.
    const w = this.window;
    for (let k = 0; k < literals; k++) out[o + k] = w[from + k];
    o += literals;
    if (matchLength === 0) return o;
    out[o++] = distance & 0xff;
    out[o++] = distance >>> 8;
    if (extra >= 15) o = writeLengthTail(out, o, extra - 15);
    return o;
  }

  /** Room in the window for a record of `length` bytes and in the output for its worst case. */
  private reserve(length: number): void {
    const D = this.dictionary.length;
    if (this.window.length < D + length + 8) {
      const window = new Uint8Array(D + length + (length >> 1) + 8);
      window.set(this.dictionary);
      this.window = window;
      this.words = new DataView(window.buffer);
    }
    const worst = length + Math.ceil(length / 255) + 16;
    if (this.out.length < worst) this.out = new Uint8Array(worst + (worst >> 1));
  }
}

/** How far window[a..] and window[b..] agree, at least LZ_MIN_MATCH (already checked), at most `max`: four bytes at a time. */
function matchLength(w: Uint8Array, words: DataView, a: number, b: number, max: number): number {
  let l = LZ_MIN_MATCH;
  while (l + 4 <= max && words.getUint32(a + l, true) === words.getUint32(b + l, true)) l += 4;
  while (l < max && w[a + l] === w[b + l]) l++;
  return l;
}

function writeLengthTail(out: Uint8Array, o: number, rest: number): number {
  for (; rest >= 255; rest -= 255) out[o++] = 255;
  out[o++] = rest;
  return o;
}

/**
 * The decoded length of the record in src[start, end) (its LEB128 prefix), or -1 when the
 * prefix is malformed or says more than 2^31 bytes.
 */
export function lzDecodedLength(src: Uint8Array, start: number, end: number): number {
  let length = 0;
  for (let at = start, shift = 0; at < end && shift < 32; shift += 7) {
    const b = src[at++];
    length += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return length < 2 ** 31 ? length : -1;
  }
  return -1;
}

/**
 * The reference decoder (and the fallback where WebAssembly is unavailable, as under
 * `node --jitless`): decodes the record in src[start, end) into out[outAt, outAt + length) and
 * returns its length, or -1 when the bytes are not a record this format can write (a length,
 * a distance or a copy out of bounds). lz-wasm.ts decodes the same bytes the same way, faster.
 */
export function lzDecode(src: Uint8Array, start: number, end: number, dictionary: Uint8Array, out: Uint8Array, outAt: number): number {
  const length = lzDecodedLength(src, start, end);
  if (length < 0 || outAt + length > out.length) return -1;
  const D = dictionary.length;
  const limit = outAt + length;
  let i = start;
  while (src[i++] >= 0x80);
  let o = outAt;
  for (;;) {
    if (i >= end) return -1;
    const token = src[i++];
    let literals = token >>> 4;
    if (literals === 15) {
      let b: number;
      do {
        if (i >= end) return -1;
        b = src[i++];
        literals += b;
      } while (b === 255);
    }
    if (i + literals > end || o + literals > limit) return -1;
    for (let k = 0; k < literals; k++) out[o + k] = src[i + k];
    i += literals;
    o += literals;
    if (i === end) return o === limit ? o - outAt : -1;
    if (i + 2 > end) return -1;
    const distance = src[i] | (src[i + 1] << 8);
    i += 2;
    let match = token & 15;
    if (match === 15) {
      let b: number;
      do {
        if (i >= end) return -1;
        b = src[i++];
        match += b;
      } while (b === 255);
    }
    match += LZ_MIN_MATCH;
    if (distance === 0 || distance > o - outAt + D || o + match > limit) return -1;
    // The source is the dictionary followed by the output so far: a copy may start in the first.
    let from = o - distance;
    for (; from < outAt && match > 0; match--) out[o++] = dictionary[D - (outAt - from++)];
    for (; match > 0; match--) out[o++] = out[from++];
  }
}
