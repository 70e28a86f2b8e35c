#!/usr/bin/env node
// Latency around a snapshot swap: the server (pinned to CPU 0) serves a dist directory holding
// two snapshots (hard links of one compiled snapshot, so no copy), wrk drives one-word searches
// on keep-alive connections (pinned to CPU 1), and after a few seconds `current`
// is pointed at the other snapshot and the server gets SIGHUP. A probe opens a new connection
// every 200 ms until the swap is logged. Prints the load's p99 and longest request, the probe's
// longest, and the reload's time and warm-up time, once with the warm-up off and once on, `runs`
// times each.
// Usage: node bench/swap-load.mjs [--dist bench/.data/dist-1000000-1] [--connections 32]
//        [--duration 30] [--runs 3] [--port 18496]
import { linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { Catalog } from '../dist/catalog/catalog.js';
import { arg, numberArg, seeded } from './cli-args.mjs';
import { startServer } from './load/server-process.mjs';
import { ensureWrk, startWrk, writePaths } from './load/wrk.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = resolve(arg('dist', join(root, 'bench', '.data', 'dist-1000000-1')));
const connections = numberArg('connections', '32');
const duration = numberArg('duration', '30');
const runs = numberArg('runs', '3');
const port = numberArg('port', '18496');

// Two snapshot directories of hard links to the same files: a swap between them is a real reload
// (verify, open, warm up, swap) at no disk cost.
const snapshotDir = join(source, readFileSync(join(source, 'current'), 'utf8').trim());
const work = mkdtempSync(join(tmpdir(), 'omm-swap-load-'));
for (const name of ['aaaa', 'bbbb']) {
  mkdirSync(join(work, 'snapshots', name), { recursive: true });
  for (const file of readdirSync(snapshotDir)) linkSync(join(snapshotDir, file), join(work, 'snapshots', name, file));
}
const sizeGiB = readdirSync(snapshotDir).reduce((sum, f) => sum + statSync(join(snapshotDir, f)).size, 0) / 2 ** 30;

// One-word searches from the snapshot's own songs.
const cat = Catalog.open(source);
const next = seeded(20261123);
const paths = Array.from(
  { length: 2000 },
  () => `/v1/search?${new URLSearchParams({ term: cat.song(Math.floor(next() * cat.count('song'))).name.split(' ')[0], types: 'song', limit: '10' })}`,
);
cat.close();
ensureWrk();
const pathsFile = writePaths(join(work, 'paths.txt'), paths);

async function once(warmUp) {
  writeFileSync(join(work, 'current'), 'snapshots/aaaa');
  const server = await startServer(work, { port, args: ['--warm-up', warmUp] });
  const origin = server.origin;
  const loaded = startWrk(origin, pathsFile, { connections, seconds: duration });
  await new Promise((r) => setTimeout(r, 4000));
  writeFileSync(join(work, 'current'), 'snapshots/bbbb');
  process.kill(server.pid, 'SIGHUP');
  // A new connection every 200 ms while the reload runs (both snapshots have the same build id:
  // the reload is done when /metrics counts a swap).
  let probeMax = 0;
  let probes = 0;
  for (;;) {
    const t0 = performance.now();
    const res = await request(`${origin}${paths[probes % paths.length]}`, { reset: true });
    await res.body.dump();
    probeMax = Math.max(probeMax, performance.now() - t0);
    probes++;
    const metrics = await (await request(`${origin}/metrics`, { reset: true })).body.text();
    if (/omm_snapshot_reloads_total\{outcome="swapped"\} 1/.test(metrics)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const run = await loaded;
  await server.close();
  return { warmUp, reqPerSec: run.reqPerSec, failed: run.failed, p99Ms: run.p99Ms, maxMs: run.maxMs, probes, probeMaxMs: Number(probeMax.toFixed(1)) };
}

const rows = [];
for (let i = 0; i < runs; i++) for (const warmUp of ['off', 'on']) rows.push(await once(warmUp));
rmSync(work, { recursive: true, force: true });
console.log(
  `\nswap under load: ${source} (${sizeGiB.toFixed(1)} GiB), ${connections} keep-alive connections of one-word searches, ${duration} s; ${cpus()[0].model}, Node ${process.version}\n`,
);
console.log('| warm-up | req/s | failed | p99 ms | longest request ms | new connections during the reload | longest of them ms |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.warmUp} | ${r.reqPerSec} | ${r.failed} | ${r.p99Ms} | ${r.maxMs} | ${r.probes} | ${r.probeMaxMs} |`);
