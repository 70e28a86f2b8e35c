#!/usr/bin/env node
// Serving a snapshot much larger than memory (issue 42): bench:load's generated catalog served
// from a process tree whose cgroup v1 memory limit (page cache included) is 1, 2 and 4 GiB, with
// uniformly random keys: songs by id drawn at random from the whole catalog per request (in wrk's
// Lua, random-songs.lua); 10-ISRC lookups of 500,000 songs spread over the catalog (50,000 lines
// of 10); one-word searches and matches from 50,000 songs sampled at random. For each
// limit the snapshot's pages are evicted from the page cache first (posix_fadvise DONTNEED), the
// server starts inside the group, each kind gets a warm-up then a timed wrk run (-t2 -c64, the
// server on core 0, wrk on core 1), and the group's own counters say whether the limit held (peak
// usage, failcnt, OOM kills) before it is removed. Root only.
// Usage: npm run bench:memory -- [--songs 30000000] [--limits 1,2,4] [--workers 1,4] [--seconds 20]
//   [--warmup 10] [--kinds "song by id,10-ISRC lookup,one-word search,match"] [--record]
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { arg, numberArg, seeded } from './cli-args.mjs';
import { benchCatalog } from './load/bench-catalog.mjs';
import { loadKinds } from './load/load-kinds.mjs';
import { cgroupUnavailable, evictPages, makeGroup } from './load/memory-cgroup.mjs';
import { treeMemoryKiB } from './load/proc-tree.mjs';
import { ensureWrk, runWrk, writePaths } from './load/wrk.mjs';
import { recordRow } from './record-row.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const songs = numberArg('songs', '30000000');
const limits = arg('limits', '1,2,4').split(',').map(Number);
const workerCounts = arg('workers', '1,4').split(',').map(Number);
const seconds = numberArg('seconds', '20');
const warmup = numberArg('warmup', '10');
const record = process.argv.includes('--record');
const only = arg('kinds', null)?.split(',');
const log = (line) => console.error(`[bench:memory] ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PORT = 18_300;

const unavailable = cgroupUnavailable();
if (unavailable) throw new Error(`bench:memory: ${unavailable}`);
ensureWrk();
const { dist } = benchCatalog(songs, log);
const { Catalog } = await import('../dist/catalog/catalog.js');
const { resolveSnapshotDir } = await import('../dist/index-format/index.js');
const snapshotDir = resolveSnapshotDir(dist);

/** Path files of the kinds drawn from 50,000 songs sampled uniformly (and the Lua script's song count). */
function kinds() {
  const cat = Catalog.open(dist);
  const drawn = loadKinds(cat, seeded(11), 50_000);
  // 500,000 songs spread evenly over the catalog (read in ordinal order, so quickly), their ISRCs
  // shuffled into 50,000 lookups of 10: no lookup's songs are near each other in any table.
  const stored = cat.records('song').count;
  const next = seeded(13);
  const isrcs = [];
  for (let i = 0; i < 500_000; i++) {
    const isrc = cat.song(Math.floor(((i + next()) * stored) / 500_000)).isrc;
    if (isrc) isrcs.push(isrc);
  }
  cat.close();
  for (let i = isrcs.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [isrcs[i], isrcs[j]] = [isrcs[j], isrcs[i]];
  }
  const isrcSets = Array.from({ length: Math.floor(isrcs.length / 10) }, (_, i) => isrcs.slice(i * 10, i * 10 + 10).join(','));
  const file = (name, paths) => writePaths(join(root, 'bench', '.data', `memory-${name}.txt`), paths);
  const byName = Object.fromEntries(drawn.map((k) => [k.name, k.paths.v1]));
  return [
    { name: 'song by id', target: 10, wrk: { script: join(root, 'bench', 'load', 'random-songs.lua') }, arg: String(stored) },
    {
      name: '10-ISRC lookup',
      target: 20,
      arg: file(
        'isrc',
        isrcSets.map((v) => `/v1/songs/lookup?isrc=${v}`),
      ),
    },
    { name: 'one-word search', target: 20, arg: file('one-word', byName['one-word search']) },
    { name: 'match', target: 30, arg: file('match', byName['match: title + artist']) },
  ];
}

async function ready(origin) {
  for (let i = 0; i < 600; i++) {
    try {
      const res = await request(`${origin}/readyz`);
      await res.body.dump();
      if (res.statusCode === 200) return;
    } catch {
      // not yet
    }
    await sleep(100);
  }
  throw new Error('the server did not become ready');
}

async function alive(origin) {
  try {
    const res = await request(`${origin}/healthz`);
    await res.body.dump();
    return res.statusCode === 200;
  } catch {
    return false;
  }
}

/** The server's omm_cold_reads_total by outcome (summed over workers): requests run again once their pages were in. */
async function coldReads(origin) {
  const totals = { requests: 0, rounds: 0, waited: 0 };
  // A connection of its own: one kept from before a run has outlived the server's keep-alive.
  try {
    const res = await request(`${origin}/metrics`, { reset: true });
    for (const line of (await res.body.text()).split('\n')) {
      const m = /^omm_cold_reads_total\{[^}]*outcome="(\w+)"[^}]*\} (\d+)/.exec(line);
      if (m && m[1] in totals) totals[m[1]] += Number(m[2]);
    }
  } catch {
    // a server gone says so in its row
  }
  return totals;
}

/** One limit, one worker count: every kind, and the group's counters after each. */
async function measure(limitGiB, workers, list) {
  const stillCached = evictPages(snapshotDir);
  const group = makeGroup('omm-bench-memory', limitGiB * 2 ** 30);
  const origin = `http://127.0.0.1:${PORT}`;
  const server = group.spawn(
    ['taskset', '-c', '0', process.execPath, join(root, 'bin', 'omm'), 'serve', dist, '--port', String(PORT), '--workers', String(workers)],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const rows = [];
  try {
    await ready(origin);
    for (const kind of list) {
      if (warmup > 0) runWrk(origin, kind.arg, { ...kind.wrk, seconds: warmup });
      const before = await coldReads(origin);
      const r = runWrk(origin, kind.arg, { ...kind.wrk, seconds });
      const after = await coldReads(origin);
      const rerun = { requests: after.requests - before.requests, rounds: after.rounds - before.rounds, waited: after.waited - before.waited };
      const c = group.counters();
      const tree = treeMemoryKiB(server.pid);
      const up = await alive(origin);
      rows.push({ limitGiB, workers, kind: kind.name, target: kind.target, ...r, ...c, anonMiB: Math.round(tree.anon / 1024), alive: up, stillCached, rerun });
      log(
        `${limitGiB} GiB, ${workers} worker(s), ${kind.name}: ${r.reqPerSec} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, failed ${r.failed}; peak ${Math.round(c.maxUsage / 2 ** 20)} MiB of ${limitGiB * 1024}, anon ${Math.round(tree.anon / 1024)} MiB, OOM kills ${c.oomKills}; ran again ${rerun.requests} (${(rerun.requests / Math.max(1, r.requests)).toFixed(2)} a request), rounds ${rerun.rounds}, waited ${rerun.waited}${up ? '' : ', SERVER GONE'}`,
      );
      if (!up) break;
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
    group.remove();
  }
  return rows;
}

const list = kinds().filter((k) => !only || only.includes(k.name));
const all = [];
for (const workers of workerCounts) for (const limit of limits) all.push(...(await measure(limit, workers, list)));
console.log('| limit | workers | kind | req/s | p50 ms | p99 ms (target) | socket errors / non-2xx | peak of limit | anon MiB | OOM kills |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const r of all) {
  const line = `| ${r.limitGiB} GiB | ${r.workers} | ${r.kind} | ${r.reqPerSec} | ${r.p50Ms} | ${r.p99Ms} (${r.target}) | ${r.socketErrors} / ${r.non2xx} | ${Math.round(r.maxUsage / 2 ** 20)} MiB | ${r.anonMiB} | ${r.oomKills}${r.alive ? '' : ' (server gone)'} |`;
  console.log(line);
  if (record) recordRow('<!-- memory rows -->', `| ${new Date().toISOString().slice(0, 10)} | ${songs.toLocaleString('en')} |${line.slice(1)}`);
}
if (all.some((r) => r.oomKills > 0 || !r.alive || r.maxUsage > r.limit)) process.exitCode = 1;
