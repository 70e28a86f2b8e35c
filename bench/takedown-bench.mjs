#!/usr/bin/env node
// Takedown benchmark (issue 41): how long from `omm takedown` until a watching server answers 404
// for every release taken down. On the bench snapshot of N songs (bench/.data/dist-N-1, as
// bench:load makes it), a dist directory hard-linked to it is served by `omm serve --watch` (core
// 0); `releases` albums spread over the catalog are taken down by UPC (a list file), and every
// one of them is asked for by id (/v1/album/<id>) in rounds until all answer 404. Records the
// command's own time, the time until the last 404, the server's swap (its log line: verify,
// open, warm-up), and the bytes the takedown snapshot wrote beside its hard links.
// Usage: npm run bench:takedown -- [--songs 30000000] [--releases 1000] [--record]
import { spawn } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { Catalog } from '../dist/catalog/catalog.js';
import { numberArg } from './cli-args.mjs';
import { benchCatalog, work } from './load/bench-catalog.mjs';
import { pinned } from './load/server-process.mjs';
import { albumsToTakeDown, linkedDist, takedownUpcs } from './load/takedown-dist.mjs';
import { recordRow } from './record-row.mjs';

const songs = numberArg('songs', '1000000');
const releases = numberArg('releases', '1000');
const record = process.argv.includes('--record');
const log = (line) => console.error(`[bench:takedown] ${line}`);
const port = 18601;
const origin = `http://127.0.0.1:${port}`;

const { dist } = benchCatalog(songs, log);
const served = linkedDist(dist, join(work, `takedown-bench-${songs}`));
const upcs = albumsToTakeDown(dist, { albums: releases });
const cat = Catalog.open(dist, { views: false });
const albumIds = upcs.map((upc) => cat.album(cat.keys('album.upc').getAll(`0${upc}`.slice(-13))[0]).id);
cat.close();

const [cmd, argv] = pinned(0, fileURLToPath(new URL('../bin/omm', import.meta.url)), ['serve', served, '--port', String(port), '--watch']);
const server = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
server.stderr.setEncoding('utf8').on('data', (chunk) => void (stderr += chunk));
const status = async (path) => {
  const res = await request(`${origin}${path}`);
  await res.body.dump();
  return res.statusCode;
};
/** Asks for every album, 32 at a time: how many still answer 200. */
async function stillServed() {
  let served = 0;
  for (let i = 0; i < albumIds.length; i += 32) {
    const codes = await Promise.all(albumIds.slice(i, i + 32).map((id) => status(`/v1/album/${encodeURIComponent(id)}`)));
    served += codes.filter((c) => c === 200).length;
  }
  return served;
}

let result;
try {
  for (;;) {
    try {
      if ((await status('/readyz')) === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const before = await stillServed();
  if (before !== albumIds.length) throw new Error(`only ${before} of ${albumIds.length} albums answer before the takedown`);
  log(`${albumIds.length} albums answer; taking them down`);
  const started = performance.now();
  const report = takedownUpcs(served, upcs, join(work, `takedown-bench-${songs}.txt`));
  let rounds = 0;
  while ((await stillServed()) > 0) rounds++;
  const until404Ms = Math.round(performance.now() - started);
  const swap = JSON.parse(stderr.split('\n').find((l) => l.includes('"snapshot-swapped"')) ?? '{}');
  const snapshotDir = join(served, 'snapshots', report.buildId);
  const base = readdirSync(join(served, 'snapshots')).find((d) => d !== report.buildId) ?? '';
  const shared = new Set(readdirSync(join(served, 'snapshots', base)));
  const written = readdirSync(snapshotDir)
    .filter((f) => !shared.has(f) || f === 'manifest.omm')
    .reduce((n, f) => n + statSync(join(snapshotDir, f)).size, 0);
  result = {
    songs,
    releases: upcs.length,
    set: report.set,
    takedownMs: report.wallMs,
    until404Ms,
    rounds,
    swapMs: swap.ms,
    warmUpMs: swap.warmUpMs,
    writtenBytes: written,
  };
  log(JSON.stringify(result));
} finally {
  server.kill('SIGTERM');
  rmSync(served, { recursive: true, force: true });
  rmSync(join(work, `takedown-bench-${songs}.txt`), { force: true });
}

const row = `| ${new Date().toISOString().slice(0, 10)} | ${songs.toLocaleString('en-US')} | ${result.releases.toLocaleString('en-US')} albums (${result.set.songs.toLocaleString('en-US')} songs in the set) | ${(result.takedownMs / 1000).toFixed(2)} s | ${(result.until404Ms / 1000).toFixed(2)} s | ${result.swapMs} ms | ${(result.writtenBytes / 1024).toFixed(1)} KiB | ${cpus().length} x ${cpus()[0].model}, ${Math.round(totalmem() / 2 ** 30)} GiB |`;
console.log(row);
if (record) recordRow('<!-- bench:takedown appends rows above this line -->', row);
