import { closeSync, ftruncateSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { generateCatalog } from '../src/generate/generate.js';
import { Snapshot, nativeMmapAvailable, openFileBytes } from '../src/index-format/index.js';
import { startChildServer } from './helpers/child-server.js';
import { tempDir } from './helpers/raw-fixture.js';
import { qs } from './helpers/server.js';

/**
 * The native mmap reader and the positioned-read fallback must be indistinguishable: same bytes
 * for every record, same answers for every key, same arrays. (When the addon cannot build here,
 * the test says so instead of passing vacuously.)
 */
/** Both servers answer every path 200, with the same bytes. */
async function sameAnswers(one: string, other: string, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const [a, b] = await Promise.all([fetch(`${one}${path}`), fetch(`${other}${path}`)]);
    expect(a.status, path).toBe(200);
    expect(b.status, path).toBe(200);
    expect(await b.text(), path).toBe(await a.text());
  }
}

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
    agree(Snapshot.open(out, { mode: 'mmap' }), Snapshot.open(out, { mode: 'pread' }));
  });

  // Files past Node's largest Buffer (4 GiB in Node 20: the search blob, relations, orders and a
  // key table of a 100M-song catalog) are mapped in windows. OMM_MAPPING_LIMIT lowers the limit,
  // so every shard of this small catalog above 64 KiB is read that way here.
  it.runIf(nativeMmapAvailable())('with files mapped in windows (above OMM_MAPPING_LIMIT), on every record, key and array', () => {
    withEnv('OMM_MAPPING_LIMIT', '65536', () => {
      const windowed = Snapshot.open(out, { mode: 'mmap' });
      agree(windowed, Snapshot.open(out, { mode: 'pread' }), () => {
        const byMode = windowed.listShards().map((s) => (s.shard.file.mapping ? 'whole' : 'windows'));
        expect(byMode.filter((m) => m === 'windows').length).toBeGreaterThanOrEqual(5);
        expect(byMode).toContain('whole');
      });
    });
  });

  it('the server says at start how it reads the shards', async () => {
    const auto = await startChildServer(out);
    const pread = await startChildServer(out, ['--reader', 'pread']);
    try {
      const line = (server: typeof auto) =>
        server
          .stderr()
          .split('\n')
          .find((l) => l.includes('serving snapshot'))!;
      expect(line(auto)).toMatch(nativeMmapAvailable() ? /; shards read by mmap$/ : /; shards read by positioned reads: the native mmap addon did not load/);
      expect(line(pread)).toMatch(/; shards read by positioned reads \(--reader pread\)$/);
    } finally {
      auto.kill();
      pread.kill();
      await Promise.all([auto.exited(), pread.exited()]);
    }
  });

  it.runIf(nativeMmapAvailable())('served from windowed mappings, answers every kind of request with the same bytes', async () => {
    const whole = await startChildServer(out);
    const windowed = await withEnv('OMM_MAPPING_LIMIT', '65536', () => startChildServer(out));
    try {
      const songs = ((await (await fetch(`${whole.url}/v1/songs?limit=40&sort=-dateAdded`)).json()) as { data: unknown }).data as {
        id: string;
        attributes: Record<string, string>;
      }[];
      const paths = [
        '/v1/',
        '/openmusic/',
        ...songs.flatMap((s) => [
          `/v1/song/${s.id}?include=albums,artists`,
          `/openmusic/songs/${s.id}?include=albums,artists`,
          `/v1/search?${qs({ term: s.attributes.name, types: 'song,album,artist', limit: 10 })}`,
          `/v1/match/song?${qs({ name: s.attributes.name, artist: s.attributes.artistName })}`,
        ]),
        `/v1/songs/lookup?${qs({
          isrc: songs
            .map((s) => s.attributes.isrc)
            .slice(0, 10)
            .join(','),
        })}`,
        '/v1/albums?limit=50&sort=-releaseDate',
        '/v1/artists?limit=50',
      ];
      await sameAnswers(whole.url, windowed.url, paths);
    } finally {
      whole.kill();
      windowed.kill();
      await Promise.all([whole.exited(), windowed.exited()]);
    }
  });

  // A snapshot larger than the memory the process may use asks for the pages of a many-key lookup
  // before it reads any (memory-limit.ts decides; OMM_READ_AHEAD=on forces it here).
  it.runIf(nativeMmapAvailable())('with lookups read ahead, answers lookups and lists with the same bytes', async () => {
    expect(Snapshot.open(out, { mode: 'mmap' }).readAhead).toBe(false);
    expect(Snapshot.open(out, { mode: 'mmap', readAheadLookups: true }).readAhead).toBe(true);
    const plain = await startChildServer(out);
    const ahead = await withEnv('OMM_READ_AHEAD', 'on', () => startChildServer(out));
    try {
      const songs = ((await (await fetch(`${plain.url}/v1/songs?limit=100&sort=name`)).json()) as { data: unknown }).data as {
        id: string;
        attributes: Record<string, string>;
      }[];
      const isrcs = songs.map((s) => s.attributes.isrc).filter(Boolean);
      const paths = [
        `/v1/songs/lookup?${qs({ isrc: isrcs.slice(0, 50).join(',') })}`,
        `/openmusic/songs?${qs({ isrc: isrcs.slice(50, 90).join(',') })}`,
        `/v1/songs/lookup?${qs({ ids: songs.map((s) => s.id).join(',') })}`,
        `/v1/songs/lookup?${qs({ ids: ['nope', songs[3].id, 'also-nope', songs[7].id].join(',') })}`,
        '/v1/songs?limit=100&sort=-dateAdded',
        '/v1/albums?limit=100',
        '/v1/artists?limit=100',
      ];
      await sameAnswers(plain.url, ahead.url, paths);
    } finally {
      plain.kill();
      ahead.kill();
      await Promise.all([plain.exited(), ahead.exited()]);
    }
  });

  it.runIf(nativeMmapAvailable() && process.platform === 'linux')(
    'reads a file larger than 4 GiB (sparse), across the 4 GiB line, after the file is removed',
    () => {
      const path = join(tempDir(), 'big.bin');
      const size = 2 ** 32 + 3 * 2 ** 20;
      const fd = openSync(path, 'w');
      ftruncateSync(fd, size);
      const marks: [number, string][] = [
        [5, 'first'],
        [2 ** 32 - 3, 'across the line'],
        [2 ** 32 + 2 ** 20, 'past 4 GiB'],
        [size - 4, 'last'],
      ];
      for (const [at, text] of marks) writeSync(fd, Buffer.from(text), 0, Buffer.byteLength(text), at);
      closeSync(fd);
      const file = openFileBytes(path, { mode: 'mmap' });
      rmSync(path);
      expect(file.size).toBe(size);
      expect(file.mapping).toBeUndefined();
      for (const [at, text] of marks) {
        const length = Math.min(Buffer.byteLength(text), size - at);
        expect(file.read(at, length).toString()).toBe(text.slice(0, length));
      }
      const wide = file.read(2 ** 32 - 2 ** 20, 2 ** 21);
      expect(wide.length).toBe(2 ** 21);
      expect(wide.subarray(2 ** 20 - 3, 2 ** 20 + 12).toString()).toBe('across the line');
      expect(() => file.read(size - 2, 4)).toThrow(/outside the file/);
      expect(() => file.read(0, 2 ** 32 + 1)).toThrow(/longer than one mapping can be/);
      file.releasePages();
      file.close();
      expect(() => file.read(0, 1)).toThrow(/after close/);
    },
  );

  it.runIf(nativeMmapAvailable() && process.platform === 'linux')(
    'a mapped file drops its pages from the process on releasePages, and reads the same bytes after',
    () => {
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
    },
  );

  it.runIf(nativeMmapAvailable())('under positioned reads, maps only the search indexes (unless the mode was asked for)', () => {
    const saved = process.env.OMM_READER;
    process.env.OMM_READER = 'pread';
    try {
      const snapshot = Snapshot.open(out);
      const mapped = snapshot
        .listShards()
        .filter((s) => s.shard.file.mode === 'mmap')
        .map((s) => s.entry.name);
      expect(mapped.sort()).toEqual([
        'search.albums',
        'search.albums.first-pages',
        'search.artists',
        'search.artists.first-pages',
        'search.playlists',
        'search.playlists.first-pages',
        'search.songs',
        'search.songs.first-pages',
      ]);
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

/** Every record, key answer, array and shard digest of `mapped` equals `read`'s; both are closed after. */
function agree(mapped: Snapshot, read: Snapshot, alsoCheck: () => void = () => {}): void {
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
  alsoCheck();
  mapped.close();
  read.close();
}

function withEnv<T>(name: string, value: string, run: () => T): T {
  const saved = process.env[name];
  process.env[name] = value;
  try {
    return run();
  } finally {
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
  }
}
