#!/usr/bin/env node
// Load benchmark against named peers, in one run on one machine (issue 5): the ceiling (bare
// node:http, fixed body), a SQLite-backed server (better-sqlite3, indexes, FTS5) and ours, on
// the same generated catalog and the same requests. Each server is pinned to CPU 0 and the
// closed-loop load generator (64 connections) to CPU 1; each request kind is measured alone:
// warm-up, then 3 timed runs (median, min-max of req/s and p50/p99).
// Usage: node bench/load-bench.mjs [--songs 1000000] [--duration 10] [--runs 3] [--connections 64]
//          [--servers ceiling,sqlite,ours] [--kinds "song by id,search, 1-2 words"] [--serve-args "--workers 2"]
//          [--growth 50]   (seconds of extra song-by-id load after the mix, for RSS growth)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../dist/catalog/catalog.js';
import { runLoad, startProcess, startServer } from './load/server-process.mjs';
import { arg, seeded } from './cli-args.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const songs = Number(arg('songs', '1000000'));
const duration = Number(arg('duration', '10'));
const runs = Number(arg('runs', '3'));
const connections = Number(arg('connections', '64'));
const servers = new Set(arg('servers', 'ceiling,sqlite,ours').split(','));
const kinds = arg('kinds', '') ? new Set(arg('kinds', '').split(/,(?! )/)) : null;
const serveArgs = arg('serve-args', '').split(' ').filter(Boolean);
// Seconds of song-by-id load after the mix, to measure memory growth (0 to skip).
const growth = Number(arg('growth', '50'));
const work = join(root, 'bench', '.data');
const raw = join(work, `raw-${songs}-1`);
const dist = join(work, `dist-${songs}-1`);
const dbFile = join(work, `sqlite-${songs}-1.db`);
const omm = join(root, 'bin', 'omm');
mkdirSync(work, { recursive: true });

if (!existsSync(join(raw, 'songs.csv'))) execFileSync(process.execPath, [omm, 'generate', '--songs', String(songs), '--seed', '1', '--out', raw], { stdio: 'inherit' });
if (!existsSync(join(dist, 'current'))) execFileSync(process.execPath, [omm, 'compile', raw, '-o', dist, '-q'], { stdio: 'inherit' });
if (servers.has('sqlite') && !existsSync(dbFile)) execFileSync(process.execPath, [join(root, 'bench', 'peers', 'sqlite-build.mjs'), raw, dbFile], { stdio: 'inherit' });

// The requests: random songs of the catalog (fixed seed), 10-ISRC sets, one- and two-word terms
// from real titles and artist names.
const cat = Catalog.open(dist);
const next = seeded(5);
const pick = () => cat.song(Math.floor(next() * cat.count('song')));
const sample = Array.from({ length: 5000 }, pick);
const withIsrc = sample.filter((s) => s.isrc);
const words = (s) => s.split(/\s+/).filter((w) => /\p{L}/u.test(w));
const terms = sample.map((s, i) => {
  const source = i % 2 === 0 ? words(s.name) : words(s.artistNames[0] ?? s.name);
  return (i % 4 < 2 ? source.slice(0, 1) : source.slice(0, 2)).join(' ') || s.name;
});
cat.close();
const enc = encodeURIComponent;
const isrcSets = Array.from({ length: 2000 }, (_, i) => Array.from({ length: 10 }, (_, k) => withIsrc[(i * 10 + k) % withIsrc.length].isrc).join(','));
const MIX = {
  'song by id': { v1: sample.map((s) => `/v1/song/${enc(s.id)}`), om: sample.map((s) => `/openmusic/songs/${enc(s.id)}`) },
  'song + albums, artists': { v1: sample.map((s) => `/v1/song/${enc(s.id)}?include=albums,artists`), om: sample.map((s) => `/openmusic/songs/${enc(s.id)}?include=albums,artists`) },
  '10-ISRC lookup': { v1: isrcSets.map((v) => `/v1/songs/lookup?isrc=${v}`), om: isrcSets.map((v) => `/openmusic/songs?isrc=${v}`) },
  'search, 1-2 words': { v1: terms.map((t) => `/v1/search?term=${enc(t)}&types=song&limit=10`), om: terms.map((t) => `/openmusic/search/songs?term=${enc(t)}&limit=10`) },
};
for (const kind of Object.keys(MIX)) if (kinds && !kinds.has(kind)) delete MIX[kind];
const tmp = mkdtempSync(join(tmpdir(), 'omm-load-'));
const file = (name, paths) => {
  const f = join(tmp, `${name.replace(/\W+/g, '-')}.json`);
  writeFileSync(f, JSON.stringify(paths));
  return f;
};
const load = (origin, paths, name) => runLoad(origin, file(name, paths), { connections, duration, runs, expect: '200' });
const summary = (r) => ({ ...r.median, rps: r.runs.map((x) => x.reqPerSec), p99s: r.runs.map((x) => x.p99Ms), failed: r.runs.reduce((a, x) => a + x.failed, 0) });

/** A peer server pinned to CPU 0, ready once it answers anything. */
const startPeer = (script, scriptArgs, port) => startProcess(script, scriptArgs, { port, readyPath: '/v1/song/x', readyStatus: null });

const results = [];
console.error(`load bench: ${songs} songs, ${connections} connections, ${runs} x ${duration} s per row; ${cpus()[0].model}, Node ${process.version}`);
// The ceiling stays up (idle between its runs) and is measured again right before each block of
// rows: this machine's speed drifts by 15 % and more within minutes, so each row's ratio uses the
// ceiling measured next to it.
const ceiling = servers.has('ceiling') ? await startPeer(join(root, 'bench', 'peers', 'ceiling-server.mjs'), ['18501'], 18501) : null;
const measureCeiling = (before) => {
  if (!ceiling) return NaN;
  const row = { server: 'ceiling', kind: `fixed 533-byte body (before ${before})`, ...summary(load(ceiling.origin, MIX['song by id']?.v1 ?? ['/'], 'ceiling')) };
  row.ceilingRps = row.reqPerSec;
  results.push(row);
  return row.reqPerSec;
};
if (servers.has('sqlite')) {
  const sqlite = await startPeer(join(root, 'bench', 'peers', 'sqlite-server.mjs'), [dbFile, '18502'], 18502);
  const ceilingRps = measureCeiling('SQLite');
  for (const [kind, paths] of Object.entries(MIX)) results.push({ server: 'sqlite', kind, ceilingRps, ...summary(load(sqlite.origin, paths.v1, `sqlite-${kind}`)) });
  results.push({ server: 'sqlite', kind: 'RSS after the runs (MiB)', rss: sqlite.rssMiB() });
  await sqlite.close();
}
if (servers.has('ours')) {
  const ours = await startServer(dist, { port: 18503, args: serveArgs });
  results.push({ server: 'ours', kind: 'start to first response (ms)', ms: Math.round(ours.readyMs) });
  for (const [kind, paths] of Object.entries(MIX)) {
    const ceilingRps = measureCeiling(kind);
    results.push({ server: 'ours /v1', kind, ceilingRps, ...summary(load(ours.origin, paths.v1, `ours-${kind}`)) });
    results.push({ server: 'ours /openmusic', kind, ceilingRps, ...summary(load(ours.origin, paths.om, `om-${kind}`)) });
  }
  const settled = ours.memory();
  results.push({ server: 'ours', kind: 'RSS after the runs (MiB): total / anonymous / mapped files', rss: `${settled.rss} / ${settled.anon} / ${settled.file}` });
  if (growth > 0 && MIX['song by id']) {
    // Leaks show as growth of the process's own (anonymous) memory over many requests.
    const long = runLoad(ours.origin, file('growth', [...MIX['song by id']?.v1 ?? [], ...MIX['song by id']?.om ?? []]), { connections, duration: growth, runs: 1, warmup: 0 });
    const after = ours.memory();
    results.push({ server: 'ours', kind: `RSS after ${long.runs[0].requests.toLocaleString('en-US')} more requests (MiB): total / anonymous / mapped files`, rss: `${after.rss} / ${after.anon} / ${after.file}` });
  }
  await ours.close();
}
if (servers.size === 1 && ceiling) measureCeiling('nothing else');
await ceiling?.close();
if (servers.size === 3 && !kinds) writeFileSync(join(work, `load-${songs}.json`), JSON.stringify(results, null, 1));
// Against SQLite, each side as a ratio to its own ceiling run, so drift between the two blocks cancels.
const sqliteRatio = Object.fromEntries(results.filter((r) => r.server === 'sqlite' && r.reqPerSec).map((r) => [r.kind, r.reqPerSec / (r.ceilingRps ?? NaN)]));
const sqliteRps = Object.fromEntries(results.filter((r) => r.server === 'sqlite' && r.reqPerSec).map((r) => [r.kind, r.reqPerSec]));
console.log(`\n| server | request | req/s (median; runs) | p50 ms | p99 ms (median; runs) | / ceiling | / SQLite (ceiling-adjusted) | failed |\n|---|---|---|---|---|---|---|---|`);
for (const r of results) {
  if (r.reqPerSec === undefined) {
    console.log(`| ${r.server} | ${r.kind} | ${r.ms ?? r.rss} | | | | | |`);
    continue;
  }
  const ratio = r.reqPerSec / (r.ceilingRps ?? NaN);
  const vsSqlite = r.server.startsWith('ours') && sqliteRps[r.kind] ? `${(r.reqPerSec / sqliteRps[r.kind]).toFixed(1)}x${Number.isFinite(ratio) && sqliteRatio[r.kind] ? ` (${(ratio / sqliteRatio[r.kind]).toFixed(1)}x)` : ''}` : '';
  console.log(`| ${r.server} | ${r.kind} | ${r.reqPerSec} (${r.rps.join(', ')}) | ${r.p50Ms} | ${r.p99Ms} (${r.p99s.join(', ')}) | ${(r.reqPerSec / (r.ceilingRps ?? NaN)).toFixed(2)} | ${vsSqlite} | ${r.failed} |`);
}
