#!/usr/bin/env node
// Match and search under load over HTTP: the server pinned to CPU 0, wrk with 64 connections
// pinned to CPU 1 (bench/load/wrk.mjs), each request kind measured alone (warm-up, then 3 timed
// runs; median and min-max). Queries come from the snapshot's own songs. The first
// row is the floor: a bare node:http server answering every request with a fixed body as large
// as a one-word search answer, under the same load (bench/peers/ceiling-server.mjs).
// Usage: node bench/search-load.mjs [--dist bench/.data/dist-1000000-1] [--connections 64]
//        [--duration 10] [--queries 5000] [--port 18480]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../dist/catalog/catalog.js';
import { request } from 'undici';
import { startProcess, startServer } from './load/server-process.mjs';
import { ensureWrk, measureWrk, writePaths } from './load/wrk.mjs';
import { arg, numberArg, seeded } from './cli-args.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = arg('dist', join(root, 'bench', '.data', 'dist-1000000-1'));
const connections = numberArg('connections', '64');
const duration = numberArg('duration', '10');
const count = numberArg('queries', '5000');
const port = numberArg('port', '18480');

// Queries from random songs of the snapshot (a fixed seed: the same queries every run).
const cat = Catalog.open(dist);
const next = seeded(20261123);
const songs = [];
for (let i = 0; i < count; i++) songs.push(cat.song(Math.floor(next() * cat.count('song'))));
cat.close();
// A one-letter typo as the matcher promises to forgive it and the quality dev set makes it: in a
// word of 5+ letters, not its first letter, a letter changed, dropped, added or swapped with
// the next. (Until 2026-11-23 this swapped any two neighbours, spaces and 3-letter words
// included, which the matcher does not claim to forgive: those are the no-match row now.)
const typo = (s) => {
  const words = [...s.matchAll(/\p{L}{5,}/gu)];
  if (words.length === 0) return null;
  const w = words[Math.floor(next() * words.length)];
  const chars = [...w[0]];
  const i = 1 + Math.floor(next() * (chars.length - 2));
  const op = Math.floor(next() * 4);
  const letter = 'eaiostnrl'[Math.floor(next() * 9)];
  if (op === 0) chars[i] = chars[i] === letter ? 'u' : letter;
  else if (op === 1) chars.splice(i, 1);
  else if (op === 2) chars.splice(i, 0, letter);
  else [chars[i], chars[i + 1]] = [chars[i + 1], chars[i]];
  return s.slice(0, w.index) + chars.join('') + s.slice(w.index + w[0].length);
};
// A real title with the artists of another song, who (almost surely) never recorded it: the
// matcher has to look through every stage before it answers 404.
const otherArtists = (i) => songs[(i + 1) % songs.length].artistNames.join(' & ');
const q = (params) => new URLSearchParams(params).toString();
const words = (s) => s.name.split(/\s+/);
const kinds = {
  'search: one word': (s) => `/v1/search?${q({ term: words(s)[0], types: 'song', limit: '10' })}`,
  'search: two words': (s) => `/v1/search?${q({ term: words(s).slice(0, 2).join(' '), types: 'song', limit: '10' })}`,
  'search: title artist': (s) => `/v1/search?${q({ term: `${s.name} ${s.artistNames[0] ?? ''}`, types: 'song', limit: '10' })}`,
  'match: title + artist': (s) => `/v1/match/song?${q({ name: s.name, artist: s.artistNames.join(' & ') })}`,
  'match: typo in title': (s) => `/v1/match/song?${q({ name: typo(s.name) ?? s.name, artist: s.artistNames.join(' & ') })}`,
  'match: artist never recorded it (404)': (s, i) => `/v1/match/song?${q({ name: s.name, artist: otherArtists(i) })}`,
};
ensureWrk();
const work = mkdtempSync(join(tmpdir(), 'omm-search-load-'));
const server = await startServer(dist, { port });
const rows = [];
const measure = (kind, origin, paths) => {
  const file = writePaths(join(work, `${rows.length}.txt`), paths);
  const r = measureWrk(origin, file, { connections, seconds: duration });
  const range = (key) => `${Math.min(...r.runs.map((x) => x[key]))}-${Math.max(...r.runs.map((x) => x[key]))}`;
  rows.push({
    kind,
    ...r.median,
    reqPerSecRange: range('reqPerSec'),
    p99Range: range('p99Ms'),
    statuses: `${r.non2xx} non-2xx of ${r.runs.reduce((n, x) => n + x.requests, 0)}`,
  });
  console.error(`${kind}: ${r.median.reqPerSec} req/s, p50 ${r.median.p50Ms} ms, p99 ${r.median.p99Ms} ms`);
};
// The floor: what this machine and load generator allow for an answer of that size, with no work.
const oneWord = songs.slice(0, 200).map((s) => kinds['search: one word'](s));
let bytes = 0;
for (const path of oneWord) bytes += (await (await request(`${server.origin}${path}`)).body.arrayBuffer()).byteLength;
const floorBytes = Math.round(bytes / oneWord.length);
const floor = await startProcess(join(root, 'bench', 'peers', 'ceiling-server.mjs'), [String(port + 1), String(floorBytes)], {
  port: port + 1,
  readyPath: '/',
  readyStatus: null,
});
measure(`floor: bare node:http, a fixed ${floorBytes}-byte body`, floor.origin, oneWord);
await floor.close();
for (const [kind, make] of Object.entries(kinds))
  measure(
    kind,
    server.origin,
    songs.map((s, i) => make(s, i)),
  );
const rss = server.rssMiB();
await server.close();
rmSync(work, { recursive: true, force: true });
console.log(`\nmatch and search over HTTP, ${connections} connections, ${dist}; ${cpus()[0].model}, Node ${process.version}; server RSS after: ${rss} MiB\n`);
console.log('| request | req/s (median, min-max) | p50 ms | p99 ms (median, min-max) | answers (404: no match) |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.kind} | ${r.reqPerSec} (${r.reqPerSecRange}) | ${r.p50Ms} | ${r.p99Ms} (${r.p99Range}) | ${r.statuses} |`);
