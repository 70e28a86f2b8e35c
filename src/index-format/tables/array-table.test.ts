import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ArrayTable, ArrayTableWriter } from './array-table.js';
import { BODY_OFFSET, SHARD_KINDS } from '../constants.js';
import { FormatError } from '../errors.js';
import { nativeMmapAvailable } from '../shards/mapped-file.js';
import { openShard, type Shard } from '../shards/shard-reader.js';

const modes = nativeMmapAvailable() ? (['pread', 'mmap'] as const) : (['pread'] as const);
const opened: Shard[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

/** An adjacency of 3,000 sources, source i pointing at i % 5 targets (i, i+1, ...), and a plain array after it. */
function writeTable(): string {
  const offsets = new Uint32Array(3001);
  const targets: number[] = [];
  for (let i = 0; i < 3000; i++) {
    for (let k = 0; k < i % 5; k++) targets.push(i + k);
    offsets[i + 1] = targets.length;
  }
  const path = join(mkdtempSync(join(tmpdir(), 'omm-arrays-')), 'arrays.omm');
  new ArrayTableWriter()
    .adjacency('song.files', offsets, Uint32Array.from(targets))
    .array(
      'order',
      Uint32Array.from({ length: 5000 }, (_, i) => 4999 - i),
    )
    .write(path, 'b1');
  return path;
}

function open(path: string, mode: 'pread' | 'mmap'): ArrayTable {
  const shard = openShard(path, SHARD_KINDS.arrays, { mode });
  opened.push(shard);
  return new ArrayTable(shard);
}

describe.each(modes)('array tables (%s)', (mode) => {
  it('reads entries, slices, counts and targets as written', () => {
    const table = open(writeTable(), mode);
    const files = table.adjacency('song.files');
    expect(files.sources).toBe(3000);
    for (const source of [0, 1, 4, 1234, 2999]) {
      expect(files.count(source)).toBe(source % 5);
      expect([...files.targetsOf(source)]).toEqual(Array.from({ length: source % 5 }, (_, k) => source + k));
    }
    expect([...files.targetsOf(4, 1, 3)]).toEqual([5, 6]);
    const order = table.column('order');
    expect(order.get(0)).toBe(4999);
    expect(order.get(4999)).toBe(0);
    expect([...order.slice(10, 13)]).toEqual([4989, 4988, 4987]);
    expect([...order.slice(4998, 9999)]).toEqual([1, 0]);
    expect(order.slice(7000, 8000).length).toBe(0);
    expect(() => order.get(5000)).toThrow(RangeError);
    expect(() => order.get(-1)).toThrow(RangeError);
    expect(() => files.targetsOf(3000)).toThrow(RangeError);
  });

  it('a flipped byte in a page an entry or a slice reads is E_CHECKSUM, not a wrong number', () => {
    const path = writeTable();
    const bytes = readFileSync(path);
    const probe = open(path, mode);
    const order = probe.shard.section('order');
    const at = order.start + 4000 * 4; // entry 4000 of `order`
    expect(at).toBeGreaterThan(BODY_OFFSET);
    bytes[at] ^= 0x40;
    writeFileSync(path, bytes);
    const table = open(path, mode);
    const column = table.column('order');
    expect(column.get(0)).toBe(4999); // another page: still read
    const code = (read: () => unknown) => {
      try {
        read();
        return 'no error';
      } catch (err) {
        return err instanceof FormatError ? err.code : String(err);
      }
    };
    expect(code(() => column.get(4000))).toBe('E_CHECKSUM');
    expect(code(() => open(path, mode).column('order').slice(3990, 4010))).toBe('E_CHECKSUM');
  });
});
