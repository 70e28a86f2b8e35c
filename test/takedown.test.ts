import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { resolveSnapshotDir } from '../src/index-format/publish.js';
import { startChildServer, type ChildServer } from './helpers/child-server.js';
import { SMALL_CATALOG, tempDir, writeRaw } from './helpers/raw-fixture.js';

// `omm takedown` as an operator runs it, on the small catalog: album 10 (UPC 036000291452) holds
// songs 100 and 101, song 100 is also on album 12, album 11 (UPC 4006381333931) holds song 102,
// song 103 (ISRC GBAYE0000351) is on album 12.

const omm = fileURLToPath(new URL('../bin/omm', import.meta.url));
const ddex = fileURLToPath(new URL('./fixtures/ddex/', import.meta.url));

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [omm, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const current = (dist: string) => readFileSync(join(dist, 'current'), 'utf8').trim();

async function freshDist(): Promise<{ dist: string; base: string }> {
  const dist = tempDir('omm-takedown-cli-');
  const { buildId } = await compileCatalog({ rawDir: writeRaw(SMALL_CATALOG), outDir: dist });
  return { dist, base: buildId };
}

async function get(url: string): Promise<{ status: number; body: any }> {
  const res = await request(url);
  const text = await res.body.text();
  return { status: res.statusCode, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
}

describe('omm takedown (CLI)', () => {
  it('publishes a snapshot sharing every shard of the current one, plus the deletes set', async () => {
    const { dist, base } = await freshDist();
    const r = run('takedown', dist, '--upc', '036000291452');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^taken down: 1 songs, 1 albums, 0 artists \(named: 0 songs, 1 albums, 0 artists\)$/m);
    const before = join(dist, 'snapshots', base);
    const after = resolveSnapshotDir(dist);
    expect(after).not.toBe(before);
    // Every shard of the base is the same file (a hard link), not a copy; what is new is small.
    let written = 0;
    for (const file of readdirSync(after)) {
      const shared = readdirSync(before).includes(file) && file !== 'manifest.omm';
      if (shared) expect(statSync(join(after, file)).ino, file).toBe(statSync(join(before, file)).ino);
      else written += statSync(join(after, file)).size;
    }
    expect(readdirSync(after).filter((f) => !readdirSync(before).includes(f))).toEqual(['deletes.arr']);
    expect(written).toBeLessThan(64 * 1024);
    expect(run('verify', dist).stdout).toMatch(/^snapshot [0-9a-f]{16} OK/);
    expect(run('inspect', dist).stdout).toMatch(
      new RegExp(`^takedown   of build ${base} \\(its shards shared\\): deletes set songs 1, albums 1, artists 0, stations 1, files 0, lyrics 0$`, 'm'),
    );
    const diff = run('diff', before, dist);
    expect(diff.stdout).toMatch(/^taken down: 1 songs, 1 albums \(in the records, left out by the deletes set\)$/m);
    expect(diff.stdout).toMatch(/^songs\s+4\s+3\s+0\s+1\s+0\s+0$/m);
  });

  it('adds to the set of a takedown snapshot, and publishes nothing when nothing is new', async () => {
    const { dist, base } = await freshDist();
    expect(run('takedown', dist, '--upc', '036000291452').status).toBe(0);
    const second = run('takedown', dist, '--isrc', 'GB-AYE-00-00351', '--upc', '036000291452');
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/^taken down: 1 songs, 0 albums, 0 artists/m);
    expect(second.stdout).toMatch(/^already taken down: 1 key\(s\)$/m);
    expect(second.stdout).toMatch(/^deletes set: 2 songs, 1 albums, 0 artists$/m);
    expect(run('inspect', dist).stdout).toMatch(new RegExp(`^takedown   of build ${base} `, 'm'));
    const pointer = current(dist);
    const again = run('takedown', dist, '--isrc', 'GBAYE0000351');
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/^nothing new taken down: the snapshot in service stays$/m);
    expect(current(dist)).toBe(pointer);
  });

  it('reports keys that name nothing, and refuses them under --strict without publishing', async () => {
    const { dist } = await freshDist();
    const pointer = current(dist);
    const strict = run('takedown', dist, '--isrc', 'USRC17607840', '--upc', '0012345678905', '--strict');
    expect(strict.status).toBe(1);
    expect(strict.stderr).toMatch(/^omm: E_TAKEDOWN_UNKNOWN: 1 key\(s\) name nothing in snapshot [0-9a-f]{16}: upc:0012345678905\n$/);
    expect(current(dist)).toBe(pointer);
    const lax = run('takedown', dist, '--isrc', 'USRC17607840', '--upc', '0012345678905');
    expect(lax.status).toBe(0);
    expect(lax.stdout).toMatch(/^unknown \(not in snapshot [0-9a-f]{16}\): 1 key\(s\): upc:0012345678905$/m);
    expect(lax.stdout).toMatch(/^taken down: 1 songs, 0 albums/m);
  });

  it('names the flag, or the file and line, of a key that is no key', async () => {
    const { dist } = await freshDist();
    const bad = run('takedown', dist, '--isrc', 'nope');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe('omm: E_TAKEDOWN_KEY: --isrc: "nope" is not an ISRC (CC-XXX-YY-NNNNN)\n');
    const list = join(tempDir('omm-takedown-list-'), 'list.txt');
    writeFileSync(list, '# takedowns of the day\nGBAYE0000351\n\n036000291452  # First Light\nsomething else\n');
    const fromFile = run('takedown', dist, '--file', list);
    expect(fromFile.status).toBe(1);
    expect(fromFile.stderr).toBe(
      `omm: E_TAKEDOWN_KEY: ${list}:5: "something else" is neither an ISRC, a UPC nor a catalog id (prefix it with isrc:, upc:, id: or album:)\n`,
    );
    writeFileSync(list, '# takedowns of the day\nGBAYE0000351\n\n036000291452  # First Light\n');
    const ok = run('takedown', dist, '--file', list);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/^taken down: 2 songs, 1 albums, 0 artists \(named: 1 songs, 1 albums, 0 artists\)$/m);
    expect(run('takedown', dist).stderr).toBe('omm: E_TAKEDOWN_EMPTY: nothing to take down: give --isrc, --upc, --id, --file or --from\n');
  });

  it('takes down what a DDEX delivery takes down (--from)', async () => {
    const { dist } = await freshDist();
    const r = run('takedown', dist, '--from', join(ddex, 'ern382-purge.xml'), '--from', join(ddex, 'ern43-purge.xml'));
    expect(r.status).toBe(0);
    // The ICPN names album 10; the GRid names no album of this catalog.
    expect(r.stdout).toMatch(/^taken down: 1 songs, 1 albums, 0 artists/m);
    expect(r.stdout).toMatch(/^unknown \(not in snapshot [0-9a-f]{16}\): 1 key\(s\): album:A10302B0001234567Q$/m);
  });
});

describe('a watching server and a takedown', () => {
  let dist: string;
  let server: ChildServer;
  beforeAll(async () => {
    ({ dist } = await freshDist());
    server = await startChildServer(dist, ['--watch']);
  });
  afterAll(() => server?.kill());

  it('swaps to the takedown snapshot, then answers 404 by every key and counts without it', async () => {
    expect((await get(`${server.url}/v1/album/10`)).status).toBe(200);
    expect(run('takedown', dist, '--upc', '036000291452', '--isrc', 'GBAYE0000351').status).toBe(0);
    const swapped = await server.waitFor(/snapshot-swapped/, 15_000);
    expect(JSON.parse(swapped).buildId).toBe(current(dist).slice('snapshots/'.length));
    expect((await get(`${server.url}/v1/album/10`)).status).toBe(404);
    expect((await get(`${server.url}/v1/song/101`)).status).toBe(404);
    expect((await get(`${server.url}/v1/songs/lookup?isrc=GBAYE0000351`)).body.data).toEqual([]);
    expect((await get(`${server.url}/v1/albums/lookup?upc=036000291452`)).body.data).toEqual([]);
    const om = await get(`${server.url}/openmusic/albums?upc=036000291452`);
    expect([om.status, om.body.data]).toEqual([200, []]);
    // Song 100 lives on, on album 12 only; album 12 lists it and not 103.
    const album12 = await get(`${server.url}/v1/album/12?include=tracks`);
    expect(album12.body.data.attributes.trackCount).toBe(1);
    expect(album12.body.data.relationships.tracks.data.map((t: { id: string }) => t.id)).toEqual(['100']);
    expect((await get(`${server.url}/v1/song/100/rel/albums`)).body.data.map((a: { id: string }) => a.id)).toEqual(['12']);
    expect((await get(`${server.url}/v1/`)).body.stats).toEqual({ songs: 2, albums: 2, artists: 4 });
    const metrics = (await get(`${server.url}/metrics`)).body as string;
    expect(metrics).toMatch(/^omm_snapshot_taken_down\{type="song"\} 2$/m);
    expect(metrics).toMatch(/^omm_snapshot_resources\{type="album"\} 2$/m);
  });
});
