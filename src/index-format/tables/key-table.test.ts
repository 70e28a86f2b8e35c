import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARD_KINDS } from '../constants.js';
import { KeyTable, KeyTableBuilder } from './key-table.js';
import { nativeMmapAvailable } from '../shards/mapped-file.js';
import { openShard } from '../shards/shard-reader.js';

const modes = nativeMmapAvailable() ? (['pread', 'mmap'] as const) : (['pread'] as const);

function table(keys: readonly string[], mode: 'pread' | 'mmap') {
  const builder = new KeyTableBuilder('song.isrc');
  keys.forEach((k, i) => builder.add(k, i));
  const path = join(mkdtempSync(join(tmpdir(), 'omm-keys-')), 'keys.omm');
  builder.write(path, 'b1');
  const shard = openShard(path, SHARD_KINDS.keys, { mode });
  return { keys: new KeyTable(shard), close: () => shard.close() };
}

describe.each(modes)('key tables (%s)', (mode) => {
  it('touch loads the home slot of each key and the entry it names (mapped only), whatever the keys, and changes no lookup', () => {
    const one = table(['USAT20000001'], mode);
    // The entry's first byte is the key's length; an absent key whose home slot is empty loads nothing.
    expect(one.keys.touch(['USAT20000001'])).toBe(mode === 'mmap' ? 12 : 0);
    one.close();

    const isrcs = Array.from({ length: 5000 }, (_, i) => `US00${String(i * 7).padStart(8, '0')}`);
    const many = table(isrcs, mode);
    const asked = [...isrcs.slice(0, 150), '', 'x'.repeat(300), '夜の歌', 'absent'];
    expect(() => many.keys.touch(asked)).not.toThrow();
    expect(many.keys.touch([])).toBe(0);
    for (let i = 0; i < 150; i++) expect(many.keys.getAll(isrcs[i])).toEqual([i]);
    expect(many.keys.getAll('absent')).toEqual([]);
    many.close();
  });
});
