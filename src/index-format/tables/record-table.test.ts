import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Packr, Unpackr } from 'msgpackr';
import { afterEach, describe, expect, it } from 'vitest';
import { SHARD_KINDS } from '../constants.js';
import { FormatError } from '../errors.js';
import { nativeMmapAvailable } from '../shards/mapped-file.js';
import type { PlacedRecord } from './placed-record.js';
import { RECORD_ENCODING, RecordTable } from './record-table.js';
import { COMPRESS_FROM_BYTES, joinRecordTableParts, RECORD_DICTIONARY_BYTES, RecordTableWriter } from './record-table-writer.js';
import { openShard, type Shard } from '../shards/shard-reader.js';
import { ShardWriter } from '../shards/shard-writer.js';
import { u32Bytes } from '../u32.js';

const modes = nativeMmapAvailable() ? (['pread', 'mmap'] as const) : (['pread'] as const);
const decoders = ['wasm', 'js'] as const;
const opened: Shard[] = [];

function open(paths: string[], mode: 'pread' | 'mmap'): Shard[] {
  const shards = paths.map((p) => openShard(p, SHARD_KINDS.records, { mode }));
  opened.push(...shards);
  return shards;
}

afterEach(() => {
  for (const s of opened.splice(0)) s.close();
  delete process.env.OMM_LZ_DECODER;
});

/** Records like a song table's: the same keys, words, URLs and numbers, now and then a long text. */
const song = (i: number) => ({
  id: `s${i}`,
  name: ['Night', 'Love', 'Über', '夜の歌'][i % 4] + ` ${i % 97}`,
  isrc: `US00${String(i).padStart(8, '0')}`,
  url: `https://cdn.example.com/stream/s${i}.flac`,
  genres: i % 3 ? ['Rock'] : ['Pop', 'Soul'],
  lyrics: i % 50 === 0 ? 'la '.repeat(2000 + i) : null,
});

describe.each(modes)('record tables (%s)', (mode) => {
  it.each(decoders)('store a large table compressed (%s decoder), every shard with the dictionary, and give back every record', (decoder) => {
    process.env.OMM_LZ_DECODER = decoder === 'js' ? 'js' : '';
    const dir = mkdtempSync(join(tmpdir(), 'omm-records-'));
    const packr = new Packr({ useRecords: false });
    const writer = new RecordTableWriter(dir, 'songs', 'b1', packr, { maxShardBytes: 64 * 1024 });
    const n = 6000;
    for (let i = 0; i < n; i++) writer.add(song(i));
    const shards = open(
      writer.finish().map((w) => w.path),
      mode,
    );
    expect(shards.length).toBeGreaterThan(3);
    for (const shard of shards) {
      expect(shard.meta).toMatchObject({ table: 'songs', encoding: RECORD_ENCODING });
      expect(shard.hasSection('data')).toBe(false); // what a format 1.0 reader asks for: it refuses the table when it opens it
      expect(shard.section('dictionary').length).toBe(RECORD_DICTIONARY_BYTES);
    }
    const table = new RecordTable('songs', shards, new Unpackr({ useRecords: false }));
    expect(table.count).toBe(n);
    let stored = 0;
    for (let i = 0; i < n; i++) {
      expect(table.get(i)).toEqual(song(i));
      expect(table.raw(i).equals(packr.pack(song(i)))).toBe(true);
    }
    for (const shard of shards) stored += shard.section('packed').length;
    const plain = Array.from({ length: n }, (_, i) => packr.pack(song(i)).length).reduce((a, b) => a + b);
    expect(stored).toBeLessThan(plain / 2);
  });

  it('touch loads the first stored byte of each record of a list (mapped only), skips ordinals outside the table, and changes nothing read after', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omm-records-'));
    const packr = new Packr({ useRecords: false });
    const writer = new RecordTableWriter(dir, 'songs', 'b1', packr);
    const n = 3000;
    for (let i = 0; i < n; i++) writer.add(song(i));
    const [shard] = open(
      writer.finish().map((w) => w.path),
      mode,
    );
    const table = new RecordTable('songs', [shard], new Unpackr({ useRecords: false }));
    const ordinals = [5, 2999, 0, 1234, 5];
    const packed = shard.section('packed').start;
    const offsets = shard.section('offsets').start;
    const firstByte = (o: number) => shard.bytes(packed + shard.bytes(offsets + o * 4, 4).readUInt32LE(0), 1)[0];
    const expected = ordinals.reduce((sum, o) => sum + firstByte(o), 0);
    expect(table.touch(ordinals)).toBe(mode === 'mmap' ? expected : 0);
    expect(table.touch([-1, n, 1.5, Number.NaN])).toBe(0);
    for (const o of ordinals) expect(table.get(o)).toEqual(song(o));
  });

  it('keep a small table plain, as format 1.0 stored every table', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omm-records-'));
    const writer = new RecordTableWriter(dir, 'views', 'b1', null);
    const records: Buffer[] = [];
    for (let bytes = 0; bytes + 200 < COMPRESS_FROM_BYTES; bytes += 200) records.push(Buffer.from(`{"n":${records.length},"pad":"${'x'.repeat(180)}"}`));
    for (const r of records) writer.addBytes(r);
    const shards = open(
      writer.finish().map((w) => w.path),
      mode,
    );
    expect(shards).toHaveLength(1);
    expect(shards[0].meta.encoding).toBeUndefined();
    expect(shards[0].hasSection('data')).toBe(true);
    const table = new RecordTable('views', shards, new Unpackr());
    records.forEach((r, i) => expect(table.raw(i).equals(r)).toBe(true));
  });

  it('a table written in ranges by several writers at once reads as one, its shards named as one writer names them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omm-records-'));
    const packr = new Packr({ useRecords: false });
    const n = 6000;
    const bounds = [0, 2500, 2600, n]; // a compressed range, a plain one (too small for a dictionary), a compressed one
    const writers = bounds.slice(0, -1).map((from) => new RecordTableWriter(dir, 'songs', 'b1', packr, { maxShardBytes: 128 * 1024, firstOrdinal: from }));
    // Interleaved, as writers on different threads would go.
    for (let i = 0; i < n; i++) {
      const w = bounds.findIndex((b, k) => i >= b && i < bounds[k + 1]);
      writers[w].add(song(i));
    }
    const parts = writers.map((w) => w.finish());
    expect(parts.map((p) => p.length)).toEqual([expect.any(Number), 1, expect.any(Number)]);
    expect(parts[0].length).toBeGreaterThan(1);
    const joined = joinRecordTableParts('songs', parts);
    const names = joined.map((w) => w.path.slice(dir.length + 1));
    expect(names).toEqual(names.map((_, i) => `songs.${String(i).padStart(4, '0')}.rec`));
    expect(readdirSync(dir).sort()).toEqual(names);
    const shards = open(
      joined.map((w) => w.path),
      mode,
    );
    expect(shards.map((s) => s.meta.encoding ?? 'plain').filter((e) => e === 'plain')).toHaveLength(1);
    const table = new RecordTable('songs', shards, new Unpackr({ useRecords: false }));
    expect(table.count).toBe(n);
    for (let i = 0; i < n; i++) expect(table.get(i)).toEqual(song(i));
  });

  /** A table of `n` song() records, written with the default shard size (compressed), opened in this mode. */
  function songTable(n: number): RecordTable {
    const writer = new RecordTableWriter(mkdtempSync(join(tmpdir(), 'omm-records-')), 'songs', 'b1', new Packr({ useRecords: false }));
    for (let i = 0; i < n; i++) writer.add(song(i));
    return new RecordTable(
      'songs',
      open(
        writer.finish().map((w) => w.path),
        mode,
      ),
      new Unpackr({ useRecords: false }),
    );
  }

  it('keepRecent hands out the record it decoded last for an ordinal, and decodes any other', () => {
    const table = songTable(3000);
    expect(table.get(5)).not.toBe(table.get(5));
    table.keepRecent();
    for (let i = 0; i < 3000; i += 7) {
      const first = table.get(i);
      expect(first).toEqual(song(i));
      expect(table.get(i)).toBe(first);
      expect(table.get(i + 1)).toEqual(song(i + 1)); // another slot
      expect(table.get(i)).toBe(first);
      expect(table.get((i + 8) % 3000)).toEqual(song((i + 8) % 3000)); // the same slot, taken over
      expect(table.get(i)).not.toBe(first);
      expect(table.get(i)).toEqual(song(i));
    }
  });

  it('place keeps a compressed record asked for twice in a row of its slot, decoded, and writes the same bytes from it', () => {
    const table = songTable(3000);
    expect(table.compressed).toBe(true);
    const write = (placed: PlacedRecord) => {
      const out = Buffer.alloc(placed.length + 2, 0xee);
      placed.copyTo(out, 1);
      expect([out[0], out.at(-1)]).toEqual([0xee, 0xee]);
      return out.subarray(1, -1);
    };
    const written = (ordinal: number) => write(table.place(ordinal));
    // What the cache holds, read without asking for it (an ask counts as a use). 1,024 slots.
    const cache = (table as unknown as { decodedCache: { holds(o: number): boolean } }).decodedCache;
    for (const ordinal of [3, 1501, 2999]) {
      const raw = table.raw(ordinal);
      expect(written(ordinal).equals(raw)).toBe(true);
      expect(cache.holds(ordinal)).toBe(false);
      expect(written(ordinal).equals(raw)).toBe(true);
      expect(cache.holds(ordinal)).toBe(true);
      expect(written(ordinal).equals(raw), String(ordinal)).toBe(true);
      expect(write(table.place(ordinal).withoutLastByte()).equals(raw.subarray(0, raw.length - 1))).toBe(true);
    }
    // A kept record asked for since keeps its slot once against another asked for twice in a row;
    // what was placed from a slot taken since writes its own bytes all the same.
    const held = table.place(3);
    const heldShorter = held.withoutLastByte();
    written(3 + 1024);
    written(3 + 1024);
    expect(cache.holds(3)).toBe(true);
    written(3 + 1024);
    written(3 + 1024);
    expect(cache.holds(3)).toBe(false);
    expect(cache.holds(3 + 1024)).toBe(true);
    expect(write(held).equals(table.raw(3))).toBe(true);
    expect(write(heldShorter).equals(table.raw(3).subarray(0, table.raw(3).length - 1))).toBe(true);
    expect(written(3 + 1024).equals(table.raw(3 + 1024))).toBe(true);
    // The same slot taken in turns by two records keeps neither; a record past 2 KiB is never kept.
    written(7);
    written(7 + 1024);
    written(7);
    expect(cache.holds(7)).toBe(false);
    const long = 50; // its lyrics are 6 KB
    written(long);
    written(long);
    expect(table.raw(long).length).toBeGreaterThan(2048);
    expect(cache.holds(long)).toBe(false);
  });

  it('an empty table is one empty plain shard', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omm-records-'));
    const shards = open(
      new RecordTableWriter(dir, 'none', 'b1', null).finish().map((w) => w.path),
      mode,
    );
    expect(new RecordTable('none', shards, new Unpackr()).count).toBe(0);
  });
});

/** A one-shard compressed table written by hand, to hold bytes the encoder would never write. */
function handMade(meta: Record<string, unknown>, packed: Buffer): Shard[] {
  const path = join(mkdtempSync(join(tmpdir(), 'omm-records-')), 'bad.0000.rec');
  const writer = new ShardWriter(path, SHARD_KINDS.records, 'b1');
  writer.section('dictionary', Buffer.from('{"id":"s'));
  writer.section('packed', packed);
  writer.section('offsets', u32Bytes(Uint32Array.from([0, packed.length])));
  writer.finish({ table: 'bad', firstOrdinal: 0, count: 1, ...meta });
  return open([path], 'pread');
}

describe('damaged compressed records', () => {
  it.each(modes)('a flipped byte in the dictionary or the packed records is E_CHECKSUM, before any byte is decoded (%s)', (mode) => {
    const dir = mkdtempSync(join(tmpdir(), 'omm-records-'));
    const packr = new Packr({ useRecords: false });
    const writer = new RecordTableWriter(dir, 'songs', 'b1', packr);
    for (let i = 0; i < 3000; i++) writer.add(song(i));
    const [written] = writer.finish();
    const clean = openShard(written.path, SHARD_KINDS.records);
    const flips = [clean.section('dictionary').start + 100, clean.section('packed').start + 5000];
    clean.close();
    for (const at of flips) {
      const copy = join(dir, `flipped-${at}.0000.rec`);
      const bytes = readFileSync(written.path);
      bytes[at] ^= 0x10;
      writeFileSync(copy, bytes);
      const table = new RecordTable('songs', open([copy], mode), new Unpackr({ useRecords: false }));
      const codes = new Set<string>();
      for (let i = 0; i < 3000; i++) {
        try {
          expect(table.get(i)).toEqual(song(i));
        } catch (err) {
          codes.add((err as FormatError).code);
        }
      }
      expect([...codes]).toEqual(['E_CHECKSUM']);
    }
  });

  it('a record whose bytes are not omm-lz is E_FORMAT_RECORD, not a crash or garbage', () => {
    const table = new RecordTable(
      'bad',
      handMade({ encoding: RECORD_ENCODING, maxRecordBytes: 100 }, Buffer.from([20, 0x0f, 0xff, 0xff, 0xff])),
      new Unpackr(),
    );
    for (const read of [() => table.raw(0), () => table.get(0)]) {
      expect(read).toThrow(FormatError);
      expect(read).toThrow(/does not decompress/);
    }
  });

  it('a record longer than the shard says its longest is, is refused', () => {
    // It says it decodes to 11 bytes; the shard's longest is 8.
    const table = new RecordTable(
      'bad',
      handMade({ encoding: RECORD_ENCODING, maxRecordBytes: 8 }, Buffer.from([11, 0x04, 8, 0, 0x30, 0x31, 0x32, 0x7d])),
      new Unpackr(),
    );
    expect(() => table.raw(0)).toThrow(/does not decompress/);
  });

  it('an encoding this reader does not know is refused when the table opens', () => {
    expect(() => new RecordTable('bad', handMade({ encoding: 'zstd', maxRecordBytes: 8 }, Buffer.alloc(4)), new Unpackr())).toThrow(/encoding "zstd"/);
  });
});
