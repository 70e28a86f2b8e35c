import { execFileSync } from 'node:child_process';
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { generateCatalog } from '../src/generate/generate.js';
import { loadNativeAddon } from '../src/index-format/codec/native-addon.js';
import { nativeMmapAvailable } from '../src/index-format/index.js';
import { startChildServer, type ChildServer } from './helpers/child-server.js';
import { tempDir } from './helpers/raw-fixture.js';
import { qs } from './helpers/server.js';

/**
 * A snapshot larger than memory: a request that would wait for the disk runs again once its pages
 * are in (src/index-format/shards/cold-reads.ts). OMM_COLD_READS=simulate makes every page read
 * as on disk until a request has brought it in, so every endpoint takes that path here.
 */
describe('reads that would wait for the disk', () => {
  let out: string;
  beforeAll(async () => {
    const raw = tempDir();
    await generateCatalog({ songs: 2000, seed: 5, out: raw });
    out = tempDir();
    await compileCatalog({ rawDir: raw, outDir: out });
  });

  it.runIf(nativeMmapAvailable() && process.platform === 'linux')('the addon tells pages on disk from pages in memory, and brings them in', async () => {
    const native = loadNativeAddon()!;
    const path = join(tempDir(), 'pages.bin');
    const fd = openSync(path, 'w');
    writeSync(fd, Buffer.alloc(64 * 4096, 7));
    fsyncSync(fd);
    closeSync(fd);
    // GNU dd's nocache drops the file's clean pages from the page cache (posix_fadvise DONTNEED).
    execFileSync('dd', [`if=${path}`, 'iflag=nocache', 'count=0', 'status=none']);
    const mapping = native.map(path);
    native.advise(mapping, 'random');
    expect(native.resident!(mapping, 5 * 4096, 10), 'the page was dropped from the page cache').toBe(false);
    await native.fetchPages!([mapping.subarray(5 * 4096, 5 * 4096 + 10), mapping.subarray(40 * 4096, 42 * 4096)]);
    expect(native.resident!(mapping, 5 * 4096, 10)).toBe(true);
    expect(native.resident!(mapping, 40 * 4096, 2 * 4096)).toBe(true);
    expect(native.resident!(mapping, 20 * 4096, 1)).toBe(false);
  });

  it.runIf(nativeMmapAvailable())('every endpoint of both interfaces and the explorer answers with the same bytes', async () => {
    const plain = await startChildServer(out);
    const cold = await withEnv({ OMM_READ_AHEAD: 'on', OMM_COLD_READS: 'simulate' }, () => startChildServer(out));
    try {
      const paths = await requestsOfEveryKind(plain);
      for (const path of paths) {
        const [a, b] = await Promise.all([
          fetch(`${plain.url}${path}`, { headers: { accept: 'text/html' } }),
          fetch(`${cold.url}${path}`, { headers: { accept: 'text/html' } }),
        ]);
        expect(a.status, path).toBe(200);
        expect(b.status, path).toBe(200);
        expect(await b.text(), path).toBe(await a.text());
      }
      const metrics = await (await fetch(`${cold.url}/metrics`)).text();
      const count = (outcome: string) => Number(new RegExp(`omm_cold_reads_total\\{outcome="${outcome}"[^}]*\\} (\\d+)`).exec(metrics)?.[1]);
      // Nearly every request found pages on disk, and none ran out of rounds.
      expect(count('requests')).toBeGreaterThan(paths.length / 2);
      expect(count('rounds')).toBeGreaterThanOrEqual(count('requests'));
      expect(count('waited')).toBe(0);
      expect(metrics).toMatch(/omm_cold_reads_total\{outcome="requests"[^}]*\} /);
    } finally {
      plain.kill();
      cold.kill();
      await Promise.all([plain.exited(), cold.exited()]);
    }
  });
});

async function requestsOfEveryKind(server: ChildServer): Promise<string[]> {
  const json = async (path: string) =>
    ((await (await fetch(`${server.url}${path}`)).json()) as { data: { id: string; attributes: Record<string, string> }[] }).data;
  const songs = await json('/v1/songs?limit=12&sort=-dateAdded');
  const albums = await json('/v1/albums?limit=4');
  const artists = await json('/v1/artists?limit=4');
  const playlists = await json('/v1/playlists?limit=2');
  const word = songs[0].attributes.name.split(' ')[0];
  return [
    '/v1/',
    '/openmusic/',
    ...songs.flatMap((s) => [
      `/v1/song/${s.id}?include=albums,artists`,
      `/v1/song/${s.id}/rel/albums`,
      `/openmusic/songs/${s.id}?include=albums,artists`,
      `/v1/match/song?${qs({ name: s.attributes.name, artist: s.attributes.artistName })}`,
      `/song/${s.id}`,
    ]),
    ...albums.flatMap((a) => [
      `/v1/album/${a.id}?include=tracks,artists`,
      `/v1/album/${a.id}/rel/tracks`,
      `/openmusic/albums/${a.id}?include=tracks`,
      `/album/${a.id}`,
    ]),
    ...artists.flatMap((a) => [
      `/v1/artist/${a.id}/rel/albums?sort=-releaseDate`,
      `/openmusic/artists/${a.id}/rel/songs`,
      `/v1/stations/artist/${a.id}`,
      `/artist/${a.id}`,
    ]),
    ...playlists.flatMap((p) => [`/v1/playlist/${p.id}/rel/tracks`, `/openmusic/playlists/${p.id}?include=tracks`, `/playlist/${p.id}`]),
    `/v1/songs/lookup?${qs({ isrc: songs.map((s) => s.attributes.isrc).join(',') })}`,
    `/openmusic/songs?${qs({ isrc: songs.map((s) => s.attributes.isrc).join(',') })}`,
    `/v1/songs/lookup?${qs({ ids: songs.map((s) => s.id).join(',') })}`,
    `/v1/search?${qs({ term: word, types: 'song,album,artist,playlist', limit: 5 })}`,
    `/v1/search?${qs({ term: word.slice(0, 2) })}`,
    `/openmusic/search?${qs({ term: word })}`,
    `/search?${qs({ term: word })}`,
    '/v1/explore',
    '/v1/stations/popular',
    '/v1/songs?limit=50&sort=-dateAdded',
    '/openmusic/albums?limit=20',
  ];
}

async function withEnv<T>(vars: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await run();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
