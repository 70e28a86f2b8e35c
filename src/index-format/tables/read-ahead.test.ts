import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Packr, Unpackr } from 'msgpackr';
import { describe, expect, it, vi } from 'vitest';
import { SHARD_KINDS } from '../constants.js';
import { nativeMmapAvailable } from '../shards/mapped-file.js';
import { openShard, Shard } from '../shards/shard-reader.js';
import { KeyTable, KeyTableBuilder } from './key-table.js';
import { RecordTable } from './record-table.js';
import { RecordTableWriter } from './record-table-writer.js';

// The read-ahead of many-key lookups (Shard.readsAhead) with the first key found on disk (the
// probe says so here, whatever the machine's cache holds): every other page is asked for, and
// the touch still loads the same bytes and changes no lookup.
vi.mock('../shards/cold-probe.js', async (original) => ({ ...(await original<typeof import('../shards/cold-probe.js')>()), waitedForDisk: () => true }));

function keysOf(keys: readonly string[], readsAhead: boolean): KeyTable {
  const builder = new KeyTableBuilder('song.isrc');
  keys.forEach((k, i) => builder.add(k, i));
  const path = join(mkdtempSync(join(tmpdir(), 'omm-ahead-keys-')), 'keys.omm');
  builder.write(path, 'b1');
  const shard = openShard(path, SHARD_KINDS.keys, { mode: 'mmap', readAhead: readsAhead, advice: 'random' });
  expect(shard.readsAhead).toBe(readsAhead);
  return new KeyTable(shard);
}

function recordsOf(n: number, readsAhead: boolean): { table: RecordTable; shard: Shard } {
  const dir = mkdtempSync(join(tmpdir(), 'omm-ahead-records-'));
  const writer = new RecordTableWriter(dir, 'songs', 'b1', new Packr({ useRecords: false }));
  for (let i = 0; i < n; i++) writer.add({ id: `s${i}`, name: `Song ${i} ${'x'.repeat(i % 50)}` });
  const [written] = writer.finish();
  const shard = openShard(written.path, SHARD_KINDS.records, { mode: 'mmap', readAhead: readsAhead, advice: 'random' });
  return { table: new RecordTable('songs', [shard], new Unpackr({ useRecords: false })), shard };
}

describe.runIf(nativeMmapAvailable())('many-key lookups read ahead', () => {
  it('a key table asks for every slot and entry page, and touches and finds as without', () => {
    const isrcs = Array.from({ length: 5000 }, (_, i) => `US00${String(i * 7).padStart(8, '0')}`);
    const asked = [...isrcs.slice(0, 120), '', 'x'.repeat(300), '夜の歌', 'absent', isrcs[4999]];
    const plain = keysOf(isrcs, false);
    const ahead = keysOf(isrcs, true);
    const prefetch = vi.spyOn(Shard.prototype, 'prefetch');
    expect(ahead.touch(asked)).toBe(plain.touch(asked));
    // The first key is the probe; every other slot, then every entry found.
    expect(prefetch.mock.calls.length).toBeGreaterThanOrEqual(asked.length - 1 + 120);
    prefetch.mockClear();
    plain.touch(asked);
    expect(prefetch).not.toHaveBeenCalled();
    for (const k of asked) expect(ahead.getAll(k)).toEqual(plain.getAll(k));
    prefetch.mockRestore();
  });

  it("a record table asks for every record's offsets and bytes, and touches and reads as without", () => {
    const plain = recordsOf(3000, false);
    const ahead = recordsOf(3000, true);
    const ordinals = [5, 2999, 0, 1234, 5, -1, 3000, 1.5, 77];
    const prefetch = vi.spyOn(Shard.prototype, 'prefetch');
    expect(ahead.table.touch(ordinals)).toBe(plain.table.touch(ordinals));
    expect(prefetch.mock.calls.length).toBeGreaterThanOrEqual(2 * 5);
    prefetch.mockRestore();
    for (const o of [5, 2999, 0, 1234, 77]) expect(ahead.table.get(o)).toEqual(plain.table.get(o));
  });
});
