import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { chunkKey, chunksOf, descriptorKey, type ObjectStore, parseDescriptor, POINTER } from '../src/object-store/index.js';
import { publishBuild } from '../src/publish/index.js';
import { startChildOmm, type ChildServer } from './helpers/child-server.js';
import { assertMatchesOpenApi } from './helpers/openapi-validator.js';
import { SMALL_CATALOG, tempDir, writeRaw } from './helpers/raw-fixture.js';
import { startTestStore, type TestStore } from './helpers/s3.js';

// `omm serve s3://…` replicas as operators run them: child processes with their own cache
// directories, against a real S3 protocol server through the real SDK, polling every 200 ms.

let s3: TestStore;
const children: ChildServer[] = [];
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await s3?.close();
});
beforeAll(async () => {
  s3 = await startTestStore();
});

/** A compiled small catalog whose song 100 is called `name` (each name a build of its own). */
async function variant(name: string): Promise<string> {
  const dist = tempDir('omm-replica-dist-');
  await compileCatalog({ rawDir: writeRaw({ ...SMALL_CATALOG, songs: SMALL_CATALOG.songs.replace('100,Song A,', `100,${name},`) }), outDir: dist });
  return dist;
}

async function replica(prefix: string, cacheDir = tempDir('omm-replica-cache-')): Promise<ChildServer & { cacheDir: string }> {
  const child = await startChildOmm(['serve', `s3://omm-test/${prefix}`, '--cache-dir', cacheDir, '--poll', '0.2', '--port', '0'], {
    env: s3.env,
    listening: /waiting for the first build|serving snapshot/,
  });
  children.push(child);
  return Object.assign(child, { cacheDir });
}

async function get(url: string): Promise<{ status: number; body: any }> {
  const res = await request(url);
  const text = await res.body.text();
  return { status: res.statusCode, body: text.startsWith('{') ? JSON.parse(text) : text };
}

/** Resolves once `check` holds, asking every 50 ms. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting until ${what}`);
}

const servesBuild = (r: ChildServer, buildId: string) => async () => (await get(`${r.url}/readyz`)).body?.buildId === buildId;

/** A store through which `publishBuild` writes one object with a byte flipped. */
function corrupting(store: ObjectStore, damaged: (key: string) => boolean): ObjectStore {
  return {
    location: store.location,
    get: (key, options) => store.get(key, options),
    list: (under) => store.list(under),
    delete: (keys) => store.delete(keys),
    put(key, body, options) {
      if (!damaged(key)) return store.put(key, body, options);
      const bad = Buffer.from(body);
      bad[Math.floor(bad.length / 2)] ^= 0x01;
      return store.put(key, bad, options);
    },
  };
}

describe('omm serve s3://… (a replica)', () => {
  it('answers /readyz 503 until its first build, then serves each build the pointer names', async () => {
    const store = s3.store('follow/');
    const r = await replica('follow/');
    expect(await get(`${r.url}/healthz`)).toMatchObject({ status: 200 });
    await until('it says it waits for a first publish', async () => (await get(`${r.url}/readyz`)).body?.status === 'waiting');
    expect((await get(`${r.url}/readyz`)).status).toBe(503);
    // Until then every other path answers 503 in its interface's error body.
    for (const path of ['/v1/song/100', '/openmusic/songs/100']) {
      const early = await get(`${r.url}${path}`);
      expect(early.status, path).toBe(503);
      assertMatchesOpenApi(path, early.status, early.body);
    }
    const first = await publishBuild(await variant('First Song'), store);
    await until('the first build is served', servesBuild(r, first.buildId));
    expect((await get(`${r.url}/v1/song/100`)).body.data.attributes.name).toBe('First Song');
    const second = await publishBuild(await variant('Second Song'), store);
    await until('the second build is served', servesBuild(r, second.buildId));
    expect((await get(`${r.url}/v1/song/100`)).body.data.attributes.name).toBe('Second Song');
    expect(r.stderr()).toMatch(/"event":"build-installed".*"downloadMs"/);
  });

  it('refuses a build with one flipped byte in its pointer, descriptor or a chunk, and keeps serving the one before', async () => {
    const store = s3.store('corrupt/');
    const good = await publishBuild(await variant('Good Song'), store);
    const r = await replica('corrupt/');
    await until('the good build is served', servesBuild(r, good.buildId));
    const goodChunks = chunksOf(parseDescriptor(((await store.get(descriptorKey(good.buildId))) as { body: Buffer }).body, 'good'));
    const damages: [string, (key: string) => boolean][] = [
      ['a chunk', (key) => key.startsWith('chunks/') && !goodChunks.has(key.slice('chunks/'.length))],
      ['the descriptor', (key) => key.startsWith('builds/')],
      ['the pointer', (key) => key === POINTER],
    ];
    const badDists: string[] = [];
    for (const [i, [what, damaged]] of damages.entries()) {
      const from = r.stderr().length;
      badDists.push(await variant(`Bad Song ${i}`));
      await publishBuild(badDists[i], corrupting(store, damaged));
      await r.waitFor(/"event":"build-refused"/, 10_000, from);
      const answer = await get(`${r.url}/v1/song/100`);
      expect(answer.status, what).toBe(200);
      expect(answer.body.data.attributes.name, what).toBe('Good Song');
      expect((await get(`${r.url}/readyz`)).body.buildId, what).toBe(good.buildId);
      // The damaged chunk stays out of the store's good builds: put it right for the next round.
      for (const sha of chunksOf(parseDescriptor(((await store.get(descriptorKey(good.buildId))) as { body: Buffer }).body, 'good')))
        expect(await store.get(chunkKey(sha))).not.toBeNull();
    }
    const fixed = await publishBuild(await variant('Fixed Song'), store);
    await until('a good build after the bad ones is served', servesBuild(r, fixed.buildId));
    // Publishing the build whose chunk was damaged again repairs the chunk and writes the pointer
    // again, even though it named that build: the replica tries it once more and serves it.
    const damagedChunk = await publishBuild(badDists[0], store);
    expect(damagedChunk.pointer.outcome).toBe('moved');
    expect(damagedChunk.chunksRepaired).toBeGreaterThan(0);
    const again = await publishBuild(badDists[0], store);
    expect(again).toMatchObject({ chunksUploaded: 0, chunksRepaired: 0, pointer: { outcome: 'already' } });
    await until('the repaired build is served', servesBuild(r, damagedChunk.buildId));
    expect((await get(`${r.url}/v1/song/100`)).body.data.attributes.name).toBe('Bad Song 0');
  }, 60_000);

  it('keeps serving what it has while the store is unreachable; started without it, retries until it can fetch', async () => {
    const store = s3.store('outage/');
    const first = await publishBuild(await variant('Before Outage'), store);
    const r = await replica('outage/');
    await until('the first build is served', servesBuild(r, first.buildId));
    s3.setReachable(false);
    const from = r.stderr().length;
    await r.waitFor(/"event":"store-unreachable"/, 10_000, from);
    expect((await get(`${r.url}/v1/song/100`)).body.data.attributes.name).toBe('Before Outage');
    // A replica started now, with nothing cached, says why it is not ready and keeps trying.
    const cold = await replica('outage/');
    await cold.waitFor(/"event":"store-unreachable".*"attempt":2/, 10_000);
    expect(await get(`${cold.url}/readyz`)).toMatchObject({ status: 503, body: { status: 'unreachable' } });
    // The first one, restarted on its cache, serves at once without the store.
    r.kill('SIGTERM');
    await r.exited();
    const restarted = await replica('outage/', r.cacheDir);
    expect(restarted.stderr()).toMatch(/serving snapshot/);
    expect((await get(`${restarted.url}/v1/song/100`)).body.data.attributes.name).toBe('Before Outage');
    s3.setReachable(true);
    await until('the cold replica is served', servesBuild(cold, first.buildId), 40_000);
    const after = await publishBuild(await variant('After Outage'), store);
    await until('the restarted replica follows', servesBuild(restarted, after.buildId), 40_000);
  }, 90_000);
});
