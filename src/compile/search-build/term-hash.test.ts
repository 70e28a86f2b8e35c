import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SHARD_KINDS } from '../../index-format/constants.js';
import { termHashCapacity } from '../../index-format/search/search-sections.js';
import { openShard } from '../../index-format/shards/shard-reader.js';
import { ShardWriter } from '../../index-format/shards/shard-writer.js';
import { FixedSorter } from '../../sort/fixed-sort.js';
import { writeTermHash } from './term-hash.js';

const dir = mkdtempSync(join(tmpdir(), 'omm-term-hash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The table as the in-memory writer builds it: each id in turn takes the first free slot from its home. */
function inserted(keyHashes: Uint32Array): { slots: Uint32Array; wrapped: number } {
  const capacity = termHashCapacity(keyHashes.length);
  const slots = new Uint32Array(capacity * 2);
  let wrapped = 0;
  keyHashes.forEach((hash, id) => {
    let slot = hash & (capacity - 1);
    while (slots[slot * 2 + 1] !== 0) slot = (slot + 1) & (capacity - 1);
    if (slot < (hash & (capacity - 1))) wrapped++;
    slots[slot * 2] = hash;
    slots[slot * 2 + 1] = id + 1;
  });
  return { slots, wrapped };
}

describe('writeTermHash', () => {
  it('lays out the slots as inserting in id order does, clusters that wrap past the last slot included', () => {
    let wrapped = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }).chain((n) =>
          // Homes bunched in a few places, the last slots among them, so clusters form and wrap.
          fc.array(
            fc.oneof(
              fc.nat(),
              fc.integer({ min: -6, max: -1 }).map((d) => (termHashCapacity(n) + d) >>> 0),
              fc.integer({ min: 0, max: 3 }),
            ),
            { minLength: n, maxLength: n },
          ),
        ),
        (hashes) => {
          const keyHashes = Uint32Array.from(hashes);
          const path = join(dir, 'hash.blob');
          const writer = new ShardWriter(path, SHARD_KINDS.blob, 't');
          writer.beginSection('terms.hash');
          writeTermHash(writer, keyHashes, new FixedSorter(dir, 'homes', 2, 1, 1), join(dir, 'homes'));
          writer.endSection();
          writer.finish();
          const shard = openShard(path);
          const section = shard.section('terms.hash');
          const expected = inserted(keyHashes);
          expect(shard.u32Array(section.start, section.length / 4)).toEqual(expected.slots);
          if (expected.wrapped > 0) wrapped++;
        },
      ),
      { numRuns: 60, seed: 11, endOnFailure: true },
    );
    // Cases where some term sits before its home, past the end of the table.
    expect(wrapped).toBeGreaterThan(10);
  });
});
