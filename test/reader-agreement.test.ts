import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { generateCatalog } from '../src/generate/generate.js';
import { Snapshot, nativeMmapAvailable, openFileBytes } from '../src/index-format/index.js';
import { tempDir } from './helpers/raw-fixture.js';

/**
 * The native mmap reader and the positioned-read fallback must be indistinguishable: same bytes
 * for every record, same answers for every key, same arrays. (When the addon cannot build here,
 * the test says so instead of passing vacuously.)
 */
describe('mmap and pread readers agree', () => {
  let out: string;
  beforeAll(async () => {
    const raw = tempDir();
    await generateCatalog({ songs: 2000, seed: 3, out: raw });
    out = tempDir();
    await compileCatalog({ rawDir: raw, outDir: out });
  });

  // Machines without a compiler may set OMM_TEST_ALLOW_NO_NATIVE=1: the fallback then serves alone.
  it.skipIf(process.env.OMM_TEST_ALLOW_NO_NATIVE === '1')('the native addon is built (npm install builds it with node-gyp)', () => {
    expect(nativeMmapAvailable()).toBe(true);
  });

  it.runIf(nativeMmapAvailable())('on every record, key and array of a generated catalog', () => {
    const mapped = Snapshot.open(out, { mode: 'mmap' });
    const read = Snapshot.open(out, { mode: 'pread' });
    expect(mapped.buildId).toBe(read.buildId);
    let records = 0;
    for (const table of ['songs', 'albums', 'artists', 'files', 'lyrics', 'playlists', 'stations', 'genres']) {
      if (!read.hasRecords(table)) continue;
      const a = mapped.records(table);
      const b = read.records(table);
      expect(a.count).toBe(b.count);
      for (let i = 0; i < a.count; i++) {
        expect(a.raw(i).equals(b.raw(i))).toBe(true);
        expect(a.get(i)).toEqual(b.get(i));
        records++;
      }
    }
    expect(records).toBeGreaterThan(2000);
    for (const [keys, table, field] of [
      ['song.id', 'songs', 'id'],
      ['song.isrc', 'songs', 'isrc'],
      ['album.upc', 'albums', 'upc'],
      ['artist.omm', 'artists', 'ommId'],
    ] as const) {
      const rows = read.records(table);
      for (let i = 0; i < rows.count; i++) {
        const key = rows.get<Record<string, string | null>>(i)[field];
        if (key) expect(mapped.keys(keys).getAll(key)).toEqual(read.keys(keys).getAll(key));
      }
    }
    for (const name of ['relations', 'songs.orders']) {
      const a = mapped.arrays(name);
      const b = read.arrays(name);
      expect(a.names()).toEqual(b.names());
      for (const n of a.names()) {
        const column = a.column(n);
        expect([...column.slice(0, column.length)], n).toEqual([...b.column(n).slice(0, column.length)]);
      }
    }
    for (const { entry, shard } of mapped.listShards()) {
      const other = read.listShards().find((s) => s.entry.file === entry.file)!;
      expect(shard.verifyAll(), entry.file).toBe(other.shard.verifyAll());
    }
    mapped.close();
    read.close();
  });

  it.runIf(nativeMmapAvailable() && process.platform === 'linux')('a mapped file drops its pages from the process on releasePages, and reads the same bytes after', () => {
    const path = join(tempDir(), 'pages.bin');
    const bytes = Buffer.alloc(32 * 2 ** 20);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i >>> 12) & 0xff;
    writeFileSync(path, bytes);
    const rssFileKiB = () => Number(/^RssFile:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
    const file = openFileBytes(path, { mode: 'mmap' });
    const touch = () => {
      let sum = 0;
      for (let i = 0; i < file.size; i += 4096) sum += file.read(i, 1)[0];
      return sum;
    };
    const before = rssFileKiB();
    const sum = touch();
    const touched = rssFileKiB();
    expect(touched - before).toBeGreaterThan(30 * 1024);
    file.releasePages();
    expect(touched - rssFileKiB()).toBeGreaterThan(30 * 1024);
    expect(touch()).toBe(sum);
    file.close();
  });

  it.runIf(nativeMmapAvailable())('under positioned reads, maps only the search indexes (unless the mode was asked for)', () => {
    const saved = process.env.OMM_READER;
    process.env.OMM_READER = 'pread';
    try {
      const snapshot = Snapshot.open(out);
      const mapped = snapshot.listShards().filter((s) => s.shard.file.mode === 'mmap').map((s) => s.entry.name);
      expect(mapped.sort()).toEqual(['search.albums', 'search.albums.first-pages', 'search.artists', 'search.artists.first-pages', 'search.playlists', 'search.playlists.first-pages', 'search.songs', 'search.songs.first-pages']);
      snapshot.releaseSearchPages();
      snapshot.close();
      const explicit = Snapshot.open(out, { mode: 'pread' });
      expect(explicit.listShards().filter((s) => s.shard.file.mode === 'mmap')).toEqual([]);
      explicit.close();
    } finally {
      if (saved === undefined) delete process.env.OMM_READER;
      else process.env.OMM_READER = saved;
    }
  });
});
