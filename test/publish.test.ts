import { openSync, readFileSync, readSync, closeSync, writeSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { generateCatalog } from '../src/generate/generate.js';
import { resolveSnapshotDir } from '../src/index-format/publish.js';
import {
  chunkKey,
  chunksOf,
  descriptorKey,
  type ObjectStore,
  parseDescriptor,
  parsePointer,
  POINTER,
  type S3ObjectStore,
  sha256Hex,
} from '../src/object-store/index.js';
import { publishBuild, readPointer, swapPointer } from '../src/publish/index.js';
import { tempDir } from './helpers/raw-fixture.js';
import { startTestStore, type TestStore } from './helpers/s3.js';

// omm publish against a real S3 protocol server (s3rver on 127.0.0.1, with conditional writes)
// through the real AWS SDK. Builds of a generated catalog of 20,000 songs, and two that add 200
// or 300 songs at the end of songs.csv (at this size they share few 1 MiB chunks with the first:
// sharing is shown by a takedown's snapshot, and measured at 1M in docs/benchmarks.md).

const omm = fileURLToPath(new URL('../bin/omm', import.meta.url));
const raws = new Map<string, string>();
let s3: TestStore;
let distA: string;
let distB: string;
let distC: string;

async function build(songs: number, seed: number, extra = ''): Promise<string> {
  const raw = tempDir('omm-publish-raw-');
  await generateCatalog({ songs, seed, out: raw, format: 'raw' });
  if (extra) {
    const fd = openSync(join(raw, 'songs.csv'), 'a');
    writeSync(fd, extra);
    closeSync(fd);
  }
  const dist = tempDir('omm-publish-dist-');
  await compileCatalog({ rawDir: raw, outDir: dist });
  raws.set(dist, raw);
  return dist;
}

const newSongs = (n: number, tag: string) =>
  Array.from(
    { length: n },
    (_, i) => `${tag}${i},Fresh ${tag} ${i},,ZZ${tag.toUpperCase().padEnd(3, 'X')}${String(i).padStart(7, '0')},200000,,,,5,2026-11-01T00:00:00Z,\n`,
  ).join('');

beforeAll(async () => {
  s3 = await startTestStore();
  distA = await build(20_000, 1);
  distB = await build(20_000, 1, newSongs(200, 'nb'));
  distC = await build(20_000, 1, newSongs(300, 'nc'));
}, 120_000);
afterAll(async () => s3?.close());

async function objectBytes(store: ObjectStore, key: string): Promise<Buffer> {
  const got = await store.get(key);
  if (!got || got === 'not-modified') throw new Error(`${key} missing`);
  return got.body;
}

describe('omm publish', () => {
  it('uploads every chunk, then the descriptor, then the pointer; the chunks put together are the files', async () => {
    const store = s3.store('whole/');
    const result = await publishBuild(distA, store);
    const pointer = parsePointer(await objectBytes(store, POINTER));
    expect(pointer.buildId).toBe(result.buildId);
    const descriptorBytes = await objectBytes(store, descriptorKey(result.buildId));
    expect(sha256Hex(descriptorBytes)).toBe(pointer.descriptorSha256);
    const descriptor = parseDescriptor(descriptorBytes, 'descriptor');
    const dir = resolveSnapshotDir(distA);
    expect(descriptor.files.map((f) => f.name)).toContain('manifest.omm');
    expect(descriptor.files.some((f) => f.chunks.length > 1)).toBe(true);
    for (const file of descriptor.files) {
      const parts = await Promise.all(file.chunks.map(([sha]) => objectBytes(store, chunkKey(sha))));
      expect(Buffer.concat(parts).equals(readFileSync(join(dir, file.name))), file.name).toBe(true);
    }
    expect(result.chunksUploaded).toBe(result.chunks);
    // The same build again: nothing to send, the pointer already names it.
    const again = await publishBuild(distA, store);
    expect(again.chunksUploaded).toBe(0);
    expect(again.pointer.outcome).toBe('already');
  });

  it('a second build uploads exactly the chunks the store lacks, each once', async () => {
    const store = s3.store('shared/');
    const first = await publishBuild(distA, store);
    const second = await publishBuild(distB, store);
    const firstChunks = chunksOf(parseDescriptor(await objectBytes(store, descriptorKey(first.buildId)), 'a'));
    const secondDescriptor = parseDescriptor(await objectBytes(store, descriptorKey(second.buildId)), 'b');
    const fresh = new Map<string, number>();
    for (const f of secondDescriptor.files) for (const [sha, len] of f.chunks) if (!firstChunks.has(sha)) fresh.set(sha, len);
    expect(second.chunksUploaded).toBe(fresh.size);
    expect(second.bytesUploaded).toBe([...fresh.values()].reduce((a, b) => a + b, 0));
    expect(second.pointer).toMatchObject({ outcome: 'moved', previous: first.buildId });
  });

  it('a takedown snapshot (its shards hard links of the build before it) uploads its deletes set and manifest only', async () => {
    const dist = await build(20_000, 1);
    const store = s3.store('takedown/');
    const first = await publishBuild(dist, store);
    const isrc = readFileSync(join(raws.get(dist)!, 'songs.csv'), 'utf8')
      .split('\n')[1]
      .split(',')[3];
    const r = spawnSync(process.execPath, [omm, 'takedown', dist, '--isrc', isrc], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const second = await publishBuild(dist, store);
    expect(second.buildId).not.toBe(first.buildId);
    expect(second.bytesUploaded).toBeLessThan(second.bytes * 0.01);
    expect(second.chunksUploaded).toBeLessThanOrEqual(2);
  });

  it('a publish cut off mid-upload leaves the pointer on the build before it, and resumes', async () => {
    const store = s3.store('cut/');
    const first = await publishBuild(distA, store);
    let sent = 0;
    await expect(
      publishBuild(distB, store, {
        concurrency: 1,
        progress: (event) => {
          if (event.phase === 'uploading' && ++sent === 3) s3.setReachable(false);
        },
      }),
    ).rejects.toMatchObject({ code: 'E_STORE_UNREACHABLE' });
    s3.setReachable(true);
    expect((await readPointer(store)).pointer?.buildId).toBe(first.buildId);
    const resumed = await publishBuild(distB, store);
    expect(resumed.pointer.previous).toBe(first.buildId);
    const full = await publishBuild(distB, s3.store('cut-reference/'));
    // Of what the build needs beyond the first, the resumed publish sent all but what the cut one had.
    const reference = await publishBuild(distA, s3.store('cut-reference2/')).then(() => publishBuild(distB, s3.store('cut-reference2/')));
    expect(full.chunksUploaded).toBe(full.chunks);
    expect(resumed.chunksUploaded).toBeLessThan(reference.chunksUploaded);
    expect(resumed.chunksUploaded).toBeGreaterThan(0);
  });

  it('a pointer write that lost a race is retried, and the pointer ends on one complete build', async () => {
    const store = s3.store('race/');
    const a = await publishBuild(distA, store);
    // Put B's objects in the store without moving the pointer, then race two swaps: the first
    // swap's write finds the pointer moved by the second between its read and its write.
    const b = await publishBuild(distB, s3.store('race-b/'));
    const bDescriptor = await objectBytes(s3.store('race-b/'), descriptorKey(b.buildId));
    for (const sha of chunksOf(parseDescriptor(bDescriptor, 'b'))) await store.put(chunkKey(sha), await objectBytes(s3.store('race-b/'), chunkKey(sha)));
    await store.put(descriptorKey(b.buildId), bDescriptor);
    const c = await publishBuild(distC, s3.store('race-c/'));
    const cDescriptor = await objectBytes(s3.store('race-c/'), descriptorKey(c.buildId));
    for (const sha of chunksOf(parseDescriptor(cDescriptor, 'c'))) await store.put(chunkKey(sha), await objectBytes(s3.store('race-c/'), chunkKey(sha)));
    await store.put(descriptorKey(c.buildId), cDescriptor);
    let raced = false;
    const racing: ObjectStore = {
      location: store.location,
      get: (key, options) => store.get(key, options),
      list: (under) => store.list(under),
      delete: (keys) => store.delete(keys),
      async put(key, body, options) {
        if (key === POINTER && !raced) {
          raced = true;
          await swapPointer(store, c.buildId, sha256Hex(cDescriptor), () => new Date());
        }
        return store.put(key, body, options);
      },
    };
    const swap = await swapPointer(racing, b.buildId, sha256Hex(bDescriptor), () => new Date());
    expect(swap.retries).toBe(1);
    const final = parsePointer(await objectBytes(store, POINTER));
    expect(final.buildId).toBe(b.buildId);
    expect(final.history).toEqual([c.buildId, a.buildId]);
    // The build it names is whole.
    for (const sha of chunksOf(parseDescriptor(await objectBytes(store, descriptorKey(final.buildId)), 'final'))) {
      expect((await store.get(chunkKey(sha))) !== null).toBe(true);
    }
    // A stale conditional write is refused by the store itself.
    await expect(store.put(POINTER, Buffer.from('{}'), { ifMatch: '"0123"' })).rejects.toMatchObject({ code: 'E_STORE_PRECONDITION' });
    await expect(store.put(POINTER, Buffer.from('{}'), { ifAbsent: true })).rejects.toMatchObject({ code: 'E_STORE_PRECONDITION' });
  });

  it('a chunk the store holds damaged is sent again, and the pointer written again though it named the build', async () => {
    const store = s3.store('repair/');
    const first = await publishBuild(distA, store);
    const descriptor = parseDescriptor(await objectBytes(store, descriptorKey(first.buildId)), 'a');
    const [sha] = descriptor.files.find((f) => f.name.startsWith('songs.'))!.chunks[0];
    const good = await objectBytes(store, chunkKey(sha));
    const bad = Buffer.from(good);
    bad[bad.length >> 1] ^= 1;
    await store.put(chunkKey(sha), bad);
    const before = parsePointer(await objectBytes(store, POINTER));
    const repaired = await publishBuild(distA, store);
    expect(repaired).toMatchObject({ chunksUploaded: 1, chunksRepaired: 1, pointer: { outcome: 'renamed', previous: first.buildId } });
    expect((await objectBytes(store, chunkKey(sha))).equals(good)).toBe(true);
    const after = parsePointer(await objectBytes(store, POINTER));
    expect(after.buildId).toBe(first.buildId);
    expect(after.history).toEqual(before.history);
  });

  it('--keep prunes old builds and the chunks only they used, never a chunk a kept build uses', async () => {
    const store = s3.store('prune/');
    const a = await publishBuild(distA, store);
    const b = await publishBuild(distB, store);
    const c = await publishBuild(distC, store, { keep: 2, pruneGraceMs: 0 });
    expect(c.pruned).toMatchObject({ keptBuilds: [c.buildId, b.buildId], buildsDeleted: 1 });
    expect(await store.get(descriptorKey(a.buildId))).toBeNull();
    const kept = new Set<string>();
    for (const id of [b.buildId, c.buildId]) for (const sha of chunksOf(parseDescriptor(await objectBytes(store, descriptorKey(id)), id))) kept.add(sha);
    const inStore = new Set<string>();
    for await (const o of store.list('chunks/')) inStore.add(o.key.slice('chunks/'.length));
    expect([...kept].filter((sha) => !inStore.has(sha))).toEqual([]);
    expect([...inStore].filter((sha) => !kept.has(sha))).toEqual([]);
    expect(c.pruned!.chunksDeleted).toBeGreaterThan(0);
  });

  it('refuses a snapshot whose shard changed since its compile, before sending anything', async () => {
    const dist = await build(2_000, 3);
    const dir = resolveSnapshotDir(dist);
    const path = join(dir, 'songs.0000.rec');
    const fd = openSync(path, 'r+');
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, 5000);
    byte[0] ^= 0x40;
    writeSync(fd, byte, 0, 1, 5000);
    closeSync(fd);
    const store: S3ObjectStore = s3.store('refused/');
    await expect(publishBuild(dist, store)).rejects.toMatchObject({ code: 'E_STORE_CORRUPT' });
    const left: string[] = [];
    for await (const o of store.list('')) left.push(o.key);
    expect(left).toEqual([]);
  });
});
