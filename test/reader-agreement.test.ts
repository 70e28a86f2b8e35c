import { beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { generateCatalog } from '../src/generate/generate.js';
import { Snapshot, nativeMmapAvailable } from '../src/index-format/index.js';
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
});
