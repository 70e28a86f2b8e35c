import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_MAX, CHUNK_MIN, chunkEnd, chunkFile } from './chunker.js';

const dir = mkdtempSync(join(tmpdir(), 'omm-chunker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Pseudo-random bytes from a seed (so a failure reproduces). */
function bytesFrom(seed: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    out[i] = s & 0xff;
  }
  return out;
}

/** The cuts of a whole buffer held in memory. */
function cutsOf(bytes: Buffer): number[] {
  const cuts: number[] = [];
  for (let start = 0; start < bytes.length; ) {
    start = chunkEnd(bytes, start, bytes.length);
    cuts.push(start);
  }
  return cuts;
}

let files = 0;
async function chunked(bytes: Buffer) {
  const path = join(dir, `f${files++}`);
  writeFileSync(path, bytes);
  return chunkFile(path);
}

describe('content-defined chunks', () => {
  it('cover a file exactly, within the size bounds, each named by its digest; read in windows, cut as in memory', async () => {
    // Sizes around the reader's 16 MiB window and the chunk bounds.
    for (const size of [0, 1, CHUNK_MIN, CHUNK_MIN + 1, 3 * CHUNK_MAX + 17, 16 * 2 ** 20 + 5, 21 * 2 ** 20]) {
      const bytes = bytesFrom(size + 1, size);
      const file = await chunked(bytes);
      expect(file.size).toBe(size);
      expect(file.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      let offset = 0;
      for (const [i, c] of file.chunks.entries()) {
        expect(c.offset).toBe(offset);
        expect(c.length).toBeLessThanOrEqual(CHUNK_MAX);
        if (i < file.chunks.length - 1) expect(c.length).toBeGreaterThan(CHUNK_MIN);
        expect(c.sha256).toBe(
          createHash('sha256')
            .update(bytes.subarray(c.offset, c.offset + c.length))
            .digest('hex'),
        );
        offset += c.length;
      }
      expect(offset).toBe(size);
      expect(file.chunks.map((c) => c.offset + c.length)).toEqual(size === 0 ? [] : cutsOf(bytes));
    }
  }, 60_000);

  it('an insertion changes only the chunks around it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 0, max: 12 * 2 ** 20 }), fc.integer({ min: 1, max: 4096 }), (seed, at, length) => {
        const before = bytesFrom(seed, 12 * 2 ** 20);
        const after = Buffer.concat([before.subarray(0, at), randomBytes(length), before.subarray(at)]);
        const digests = (b: Buffer) => {
          const cuts = cutsOf(b);
          return cuts.map((end, i) =>
            createHash('sha256')
              .update(b.subarray(i === 0 ? 0 : cuts[i - 1], end))
              .digest('hex'),
          );
        };
        const old = new Set(digests(before));
        const edited = digests(after);
        const fresh = edited.filter((d) => !old.has(d));
        // Only the chunks near it change (cuts resynchronise within a few chunks, measured up to
        // 5 of 12 here): never the file, and most of it is shared.
        expect(fresh.length).toBeLessThanOrEqual(6);
        expect(edited.length - fresh.length).toBeGreaterThanOrEqual(edited.length / 2);
      }),
      { numRuns: 12 },
    );
  }, 60_000);
});
