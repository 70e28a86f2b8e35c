#!/usr/bin/env node
// Replicas through object storage (issue 42): publish a snapshot, then a build that changes 1% of
// it, to an S3-compatible server (scripts/s3-test-server.mjs: s3rver on 127.0.0.1, through the
// real AWS SDK), and serve it from three `omm serve s3://…` replicas polling every 2 s behind the
// nginx recipe, under wrk load:
//   1. publish build A (bench:load's generated catalog) and B (A's raw catalog with 1% of song
//      titles changed, spread evenly): bytes uploaded by each;
//   2. cold start of one replica on A (download, verify, open), then two more;
//   3. 60 s of wrk through nginx; at 10 s B is published, and each replica's /readyz is watched
//      until it names B; at 35 s a build C (a takedown of B) is published with one byte of its
//      own chunk flipped in the store, and no replica may ever name it;
//   4. wrk's failed requests (non-2xx and socket errors) must be 0.
// With --segmented, B is published as A plus one delta segment made from that compile
// (docs/segments.md: A's shards shared, only the delta uploaded), and C is a takedown of A.
// Usage: npm run bench:replicas -- [--songs 1000000] [--seconds 60] [--segmented] [--record]
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { startNginx } from '../scripts/nginx-recipe.mjs';
import { startS3Server } from '../scripts/s3-test-server.mjs';
import { numberArg } from './cli-args.mjs';
import { benchCatalog, work } from './load/bench-catalog.mjs';
import { ensureWrk, startWrk, writePaths } from './load/wrk.mjs';
import { recordRow } from './record-row.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const omm = join(root, 'bin', 'omm');
const songs = numberArg('songs', '1000000');
const seconds = numberArg('seconds', '60');
const record = process.argv.includes('--record');
const segmentedB = process.argv.includes('--segmented');
const log = (line) => console.error(`[bench:replicas] ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const { chunksOf, descriptorKey, parseDescriptor, parseStoreUrl, S3ObjectStore } = await import('../dist/object-store/index.js');
const { publishBuild } = await import('../dist/publish/index.js');
const { Catalog } = await import('../dist/catalog/catalog.js');
const { publishDelta } = await import('../dist/compile/delta/publish-delta.js');
const { linkedDist } = await import('./load/takedown-dist.mjs');

ensureWrk();
const base = join(work, `replicas-${songs}`);
rmSync(base, { recursive: true, force: true });
mkdirSync(base, { recursive: true });
const { raw, dist: distA } = benchCatalog(songs, log);

/** B: A's raw catalog with every 100th song's title changed. */
function changedBuild() {
  const rawB = join(base, 'raw-b');
  cpSync(raw, rawB, { recursive: true });
  const lines = readFileSync(join(rawB, 'songs.csv'), 'utf8').split('\n');
  let changed = 0;
  for (let i = 1; i < lines.length; i += 100) {
    const l = lines[i];
    const c = l.indexOf(',');
    if (c < 0 || l[c + 1] === '"') continue;
    const d = l.indexOf(',', c + 1);
    lines[i] = `${l.slice(0, d)} (Remastered)${l.slice(d)}`;
    changed++;
  }
  writeFileSync(join(rawB, 'songs.csv'), lines.join('\n'));
  const distB = join(base, 'dist-b');
  execFileSync(process.execPath, [omm, 'compile', rawB, '-o', distB, '-q'], { stdio: 'inherit' });
  rmSync(rawB, { recursive: true, force: true });
  return { distB, changed };
}

const s3 = await startS3Server({ directory: join(base, 's3'), buckets: ['omm-bench'] });
Object.assign(process.env, s3.env);
const url = 's3://omm-bench/catalog/';
const store = new S3ObjectStore(parseStoreUrl(url));
const processes = [];
const stopAll = async () => {
  for (const p of processes) if (p.exitCode === null) p.kill('SIGTERM');
  await sleep(500);
  await s3.close();
};

try {
  log('compiling B (1% of song titles changed)');
  const { distB: fullB, changed } = changedBuild();
  let distB = fullB;
  if (segmentedB) {
    // B as A plus one delta: A's snapshot hard-linked, the delta made from B's full compile.
    distB = linkedDist(distA, join(base, 'dist-b-segmented'));
    const next = Catalog.open(fullB, { searchable: false });
    const delta = publishDelta(distB, next);
    next.close();
    log(`B as A + 1 delta: ${delta?.bytesWritten} bytes of its own`);
  }
  const pubA = await publishBuild(distA, store);
  log(`published A ${pubA.buildId}: ${pubA.bytesUploaded} bytes in ${pubA.ms.total} ms`);

  const replicas = [];
  const startReplica = (i) => {
    const port = 18_100 + i;
    const cache = join(base, `cache-${i}`);
    const child = spawn(process.execPath, [omm, 'serve', url, '--cache-dir', cache, '--poll', '2', '--port', String(port), '--trust-proxy'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: process.env,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    processes.push(child);
    const r = { i, port, origin: `http://127.0.0.1:${port}`, child, started: performance.now(), stderr: () => stderr };
    replicas.push(r);
    return r;
  };
  const readyBuild = async (r) => {
    try {
      const res = await request(`${r.origin}/readyz`);
      const body = await res.body.text();
      return res.statusCode === 200 ? JSON.parse(body).buildId : null;
    } catch {
      return null;
    }
  };
  const coldStart = async (r, buildId) => {
    while ((await readyBuild(r)) !== buildId) await sleep(50);
    const readyMs = Math.round(performance.now() - r.started);
    const installed = JSON.parse(
      r
        .stderr()
        .split('\n')
        .find((l) => l.includes('"build-installed"')),
    );
    return { readyMs, downloadMs: installed.downloadMs, verifyMs: installed.verifyMs, installMs: installed.ms, bytesFetched: installed.bytesFetched };
  };
  const first = startReplica(0);
  const cold = await coldStart(first, pubA.buildId);
  log(`cold start, one replica: ${JSON.stringify(cold)}`);
  const others = [startReplica(1), startReplica(2)];
  const coldTwo = await Promise.all(others.map((r) => coldStart(r, pubA.buildId)));
  log(`cold start, two at once: ${JSON.stringify(coldTwo)}`);

  const nginx = startNginx(
    'nginx',
    18_099,
    replicas.map((r) => r.port),
    join(base, 'nginx'),
  );
  processes.push(nginx);
  while (
    !(await fetch('http://127.0.0.1:18099/readyz')
      .then((r) => r.ok)
      .catch(() => false))
  )
    await sleep(25);

  const ids = Array.from({ length: 20_000 }, (_, i) => `s${(i * 7919) % songs}`);
  const paths = writePaths(join(base, 'paths.txt'), [
    ...ids.map((id) => `/v1/song/${id}`),
    ...ids.slice(0, 5000).map((id) => `/openmusic/songs/${id}?include=albums`),
    ...['Time', 'Love', 'Night', 'Heart', 'Dream'].map((t) => `/v1/search?term=${t}&types=song&limit=10`),
  ]);
  const load = startWrk('http://127.0.0.1:18099', paths, { cpu: 1, seconds });
  const loadStarted = performance.now();
  await sleep(10_000);
  const pubB = await publishBuild(distB, store);
  const movedAt = performance.now();
  log(`published B ${pubB.buildId}: ${pubB.bytesUploaded} of ${pubB.bytes} bytes in ${pubB.ms.total} ms`);
  const converged = await Promise.all(
    replicas.map(async (r) => {
      while ((await readyBuild(r)) !== pubB.buildId) await sleep(100);
      return Math.round(performance.now() - movedAt);
    }),
  );
  log(`every replica serves B: ${converged.join(', ')} ms after the pointer moved`);
  // Where each replica's time went: the fetch and verify (build-installed), the swap with its warm-up.
  const eventOf = (r, name, buildId) =>
    r
      .stderr()
      .split('\n')
      .filter((l) => l.includes(`"event":"${name}"`) && l.includes(`"buildId":"${buildId}"`))
      .map((l) => JSON.parse(l))[0];
  const breakdown = replicas.map((r) => {
    const installed = eventOf(r, 'build-installed', pubB.buildId);
    const swapped = eventOf(r, 'snapshot-swapped', pubB.buildId);
    return {
      downloadMs: installed?.downloadMs,
      verifyMs: installed?.verifyMs,
      bytesFetched: installed?.bytesFetched,
      bytesCopied: installed?.bytesCopied,
      swapMs: swapped?.ms,
      warmUpMs: swapped?.warmUpMs,
    };
  });
  log(`B on each replica: ${JSON.stringify(breakdown)}`);

  // C: a takedown of B, published with its own deletes chunk damaged in the store.
  await sleep(Math.max(0, 35_000 - (performance.now() - loadStarted)));
  const distC = join(base, 'dist-c');
  cpSync(segmentedB ? distA : distB, distC, { recursive: true });
  const isrc = readFileSync(join(raw, 'songs.csv'), 'utf8').split('\n', 3)[2].split(',')[3];
  execFileSync(process.execPath, [omm, 'takedown', distC, '--isrc', isrc], { stdio: 'ignore' });
  const bDescriptor = /** @type {{ body: Buffer }} */ (await store.get(descriptorKey(pubB.buildId)));
  const bChunks = chunksOf(parseDescriptor(bDescriptor.body, 'b'));
  const damaging = {
    location: store.location,
    get: (k, o) => store.get(k, o),
    list: (u) => store.list(u),
    delete: (k) => store.delete(k),
    put(key, body, options) {
      if (!key.startsWith('chunks/') || bChunks.has(key.slice(7))) return store.put(key, body, options);
      const bad = Buffer.from(body);
      bad[bad.length >> 1] ^= 1;
      return store.put(key, bad, options);
    },
  };
  const pubC = await publishBuild(distC, damaging);
  log(`published C ${pubC.buildId} with a flipped byte in ${pubC.chunksUploaded} chunk(s) of its own`);
  let servedC = 0;
  while (performance.now() - loadStarted < seconds * 1000) {
    for (const r of replicas) if ((await readyBuild(r)) === pubC.buildId) servedC++;
    await sleep(200);
  }
  const wrk = await load;
  const refused = replicas.map((r) => r.stderr().includes('"build-refused"'));
  const result = { songs, changed, pubA, pubB, cold, coldTwo, converged, breakdown, wrk, servedC, refused, cpus: cpus().length, cpu: cpus()[0].model };
  log(JSON.stringify({ ...result, pubA: undefined, pubB: undefined }));
  const share = (100 * pubB.bytesUploaded) / pubA.bytesUploaded;
  console.log(
    `publish A ${(pubA.bytes / 2 ** 20).toFixed(0)} MiB in ${(pubA.ms.total / 1000).toFixed(1)} s; B${segmentedB ? ' (A + 1 delta segment)' : ''} uploads ${(pubB.bytesUploaded / 2 ** 20).toFixed(0)} MiB = ${share.toFixed(1)}% of A\n` +
      `cold start ${(cold.readyMs / 1000).toFixed(1)} s (download ${(cold.downloadMs / 1000).toFixed(1)} s, verify ${(cold.verifyMs / 1000).toFixed(1)} s, rest ${((cold.readyMs - cold.installMs) / 1000).toFixed(1)} s)\n` +
      `converged ${converged.map((ms) => (ms / 1000).toFixed(1)).join(' / ')} s after the pointer moved; C served ${servedC} times, refused by ${refused.filter(Boolean).length}/3\n` +
      `wrk through nginx: ${wrk.requests} requests, ${wrk.reqPerSec} req/s, p99 ${wrk.p99Ms} ms, failed ${wrk.failed}`,
  );
  if (wrk.failed > 0 || servedC > 0 || refused.some((r) => !r)) process.exitCode = 1;
  if (record) {
    const date = new Date().toISOString().slice(0, 10);
    recordRow(
      '<!-- replicas rows -->',
      `| ${date} | ${songs.toLocaleString('en')} | ${(pubA.bytes / 2 ** 20).toFixed(0)} MiB, ${(pubA.ms.total / 1000).toFixed(1)} s | ${share.toFixed(1)}%${segmentedB ? ' (B as A + 1 delta)' : ''} | ${(cold.readyMs / 1000).toFixed(1)} s (${(cold.downloadMs / 1000).toFixed(1)} + ${(cold.verifyMs / 1000).toFixed(1)} + ${((cold.readyMs - cold.installMs) / 1000).toFixed(1)}) | ${converged.map((ms) => (ms / 1000).toFixed(1)).join(' / ')} s | ${wrk.requests} / ${wrk.failed} | ${servedC === 0 ? 'never' : `${servedC} times`} |`,
    );
  }
} finally {
  await stopAll();
  rmSync(base, { recursive: true, force: true });
}
