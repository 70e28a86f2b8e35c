#!/usr/bin/env node
// Snapshot size and view-serving speed, for A/B runs of two builds (issue 19, "Bytes per song").
// Handler microbenchmark: the server's request listener (createHandler) is called in process with
// a stub request and response, on the same seeded requests as bench/load-bench.mjs (5,000 random
// songs, 2,000 10-ISRC sets), so that no socket, no wrk and no other process sits between two
// builds. Every variant is loaded into the same process and their passes alternate (a, b, a, b,
// ...): on a machine whose two cores are shared with other work, a slow spell then hurts both
// alike, and the ratio of neighbouring passes says more than either time. Each round is a fresh
// process; a pass is every path of one kind once; the first pass of each variant is untimed (the
// first touch of a page checks its CRC) and digests every response body, so two builds can be
// seen to send the same bytes. The clock is the process's CPU time (`--clock cpu`, the default:
// time spent waiting for a core is not the server's cost) or wall time (`--clock wall`).
// Reported per request kind: each variant's fastest pass and median pass in µs per request, and
// the median over all alternations of each variant's pass divided by the first variant's.
// Usage: node bench/view-size-bench.mjs --variant NAME=CODE_ROOT:SNAPSHOT [--variant ...]
//          [--rounds 3] [--passes 9] [--kinds "song by id,10-ISRC lookup"] [--accept-encoding gzip] [--clock cpu|wall]
//        node bench/view-size-bench.mjs --sizes SNAPSHOT [--songs N]   (bytes per song, per file)
// CODE_ROOT is a directory holding a built dist/ (and native/, for the mmap reader); SNAPSHOT a
// snapshot or dist directory; SNAPSHOT:rendered serves it with its views off (every resource
// rendered from its records, as `omm serve --views off`). Example, after building the old commit into bench/.data/ab/before:
//   node bench/view-size-bench.mjs --variant before=bench/.data/ab/before:bench/.data/dist-1000000-1 \
//     --variant after=.:bench/.data/dist-after
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { arg, numberArg, seeded } from './cli-args.mjs';

const all = (name) => process.argv.flatMap((a, i) => (a === `--${name}` ? [process.argv[i + 1]] : []));

/** The snapshot directory a path names: itself, or the one a dist directory's `current` names. */
function snapshotDir(path) {
  try {
    return join(path, readFileSync(join(path, 'current'), 'utf8').trim());
  } catch {
    return path;
  }
}

if (arg('sizes', '')) {
  const dir = snapshotDir(resolve(arg('sizes', '')));
  const manifest = JSON.parse(execFileSync(process.execPath, [join(import.meta.dirname, '..', 'bin', 'omm'), 'inspect', dir, '--json']).toString());
  const songs = numberArg('songs', manifest.counts?.songs ?? 0);
  const groups = new Map();
  let total = 0;
  for (const file of readdirSync(dir)) {
    const bytes = statSync(join(dir, file)).size;
    const group = file.replace(/\.[0-9]{4}\.rec$/, '.*.rec');
    groups.set(group, (groups.get(group) ?? 0) + bytes);
    total += bytes;
  }
  console.log(`${dir}: ${total.toLocaleString('en')} bytes, ${songs.toLocaleString('en')} songs, ${(total / songs).toFixed(1)} bytes/song`);
  for (const [group, bytes] of [...groups].sort((a, b) => b[1] - a[1])) console.log(`${(bytes / songs).toFixed(1).padStart(8)}  ${group}`);
  process.exit(0);
}

const KINDS = ['song by id', 'song + albums, artists', '10-ISRC lookup'];

/** One round: every variant loaded here, passes alternating; prints {kind, iface, variant, passes: µs[], body}[]. */
async function child({ variants, kinds, passes, acceptEncoding, clock }) {
  const now =
    clock === 'wall'
      ? () => Number(process.hrtime.bigint()) / 1000
      : () => {
          const { user, system } = process.cpuUsage();
          return user + system;
        };
  const servers = [];
  for (const v of variants) {
    const dist = pathToFileURL(join(resolve(v.code), 'dist')).href;
    const { Catalog } = await import(`${dist}/catalog/catalog.js`);
    const { createHandler } = await import(`${dist}/serve/request-handler.js`);
    const cat = Catalog.open(snapshotDir(resolve(v.snapshot)), { views: !v.rendered });
    servers.push({ name: v.name, cat, handle: createHandler(cat, { log: null }) });
  }
  // The requests, from the first variant's catalog (the same raw input: the same ids).
  const cat = servers[0].cat;
  const next = seeded(5);
  const sample = Array.from({ length: 5000 }, () => cat.song(Math.floor(next() * cat.count('song'))));
  const withIsrc = sample.filter((s) => s.isrc);
  const isrcSets = Array.from({ length: 2000 }, (_, i) => Array.from({ length: 10 }, (_, k) => withIsrc[(i * 10 + k) % withIsrc.length].isrc).join(','));
  const enc = encodeURIComponent;
  const mix = {
    'song by id': { v1: sample.map((s) => `/v1/song/${enc(s.id)}`), om: sample.map((s) => `/openmusic/songs/${enc(s.id)}`) },
    'song + albums, artists': {
      v1: sample.map((s) => `/v1/song/${enc(s.id)}?include=albums,artists`),
      om: sample.map((s) => `/openmusic/songs/${enc(s.id)}?include=albums,artists`),
    },
    '10-ISRC lookup': { v1: isrcSets.map((v) => `/v1/songs/lookup?isrc=${v}`), om: isrcSets.map((v) => `/openmusic/songs?isrc=${v}`) },
  };
  const headers = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
  const socket = { remoteAddress: '127.0.0.1' };
  // The stub response: what the listener writes, and the `close` that ends the snapshot lease.
  /** @type {import('node:crypto').Hash | null} */
  let digest = null;
  let status = 0;
  const res = {
    /** @type {(() => void)[]} */
    closers: [],
    once(event, fn) {
      if (event === 'close') this.closers.push(fn);
      return this;
    },
    writeHead(code) {
      status = code;
    },
    end(body) {
      if (status !== 200) throw new Error(`status ${status}`);
      if (digest && body !== undefined) digest.update(body);
      for (const fn of this.closers.splice(0)) fn();
    },
  };
  const results = [];
  for (const kind of kinds) {
    for (const iface of ['v1', 'om']) {
      const paths = mix[kind][iface];
      const rows = servers.map((s) => {
        digest = createHash('sha256');
        for (const url of paths) s.handle({ url, method: 'GET', headers, socket }, res);
        const body = digest.digest('hex').slice(0, 12);
        digest = null;
        return { kind, iface, variant: s.name, passes: /** @type {number[]} */ ([]), body };
      });
      for (let p = 0; p < passes; p++) {
        servers.forEach((s, i) => {
          const t0 = now();
          for (const url of paths) s.handle({ url, method: 'GET', headers, socket }, res);
          rows[i].passes.push((now() - t0) / paths.length);
        });
      }
      results.push(...rows);
    }
  }
  for (const s of servers) s.cat.close();
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

if (process.env.OMM_VIEW_BENCH_CHILD) {
  await child(JSON.parse(process.env.OMM_VIEW_BENCH_CHILD));
  process.exit(0);
}

const variants = all('variant').map((v) => {
  const m = /^([^=]+)=([^:]+):(.+?)(:rendered)?$/.exec(v);
  if (!m) throw new Error(`--variant NAME=CODE_ROOT:SNAPSHOT[:rendered], got ${v}`);
  return { name: m[1], code: m[2], snapshot: m[3], rendered: Boolean(m[4]) };
});
if (variants.length === 0) throw new Error('give at least one --variant NAME=CODE_ROOT:SNAPSHOT (or --sizes SNAPSHOT); --help says more');
const rounds = numberArg('rounds', '3');
const passes = numberArg('passes', '9');
const kinds = arg('kinds', '') ? arg('kinds', '').split(/,(?! )/) : KINDS;
const acceptEncoding = arg('accept-encoding', '');
const clock = arg('clock', 'cpu');

const table = new Map(); // `${kind} ${iface}` -> variant -> {passes: µs[], bodies: Set}
for (let round = 0; round < rounds; round++) {
  const env = { ...process.env, OMM_VIEW_BENCH_CHILD: JSON.stringify({ variants, kinds, passes, acceptEncoding, clock }) };
  const out = execFileSync(process.execPath, [process.argv[1]], { env, maxBuffer: 1 << 24 }).toString();
  for (const r of JSON.parse(out.trim().split('\n').pop() ?? '')) {
    const key = `${r.kind} ${r.iface}`;
    if (!table.has(key)) table.set(key, new Map());
    const row = table.get(key);
    if (!row.has(r.variant)) row.set(r.variant, { passes: [], bodies: new Set() });
    row.get(r.variant).passes.push(...r.passes);
    row.get(r.variant).bodies.add(r.body);
  }
  process.stderr.write(`round ${round + 1}/${rounds} done\n`);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const [base, ...others] = variants;
console.log(
  `| request | ${variants.map((v) => `${v.name}: fastest / median µs`).join(' | ')} | ${others.map((v) => `${v.name} / ${base.name}, median of paired passes`).join(' | ')} | same bodies |`,
);
console.log(`|---|${variants.map(() => '---|').join('')}${others.map(() => '---|').join('')}---|`);
for (const [key, row] of table) {
  const cells = variants.map((v) => `${Math.min(...row.get(v.name).passes).toFixed(2)} / ${median(row.get(v.name).passes).toFixed(2)}`);
  const b = row.get(base.name).passes;
  const ratios = others.map((v) => median(row.get(v.name).passes.map((x, i) => x / b[i])).toFixed(3));
  const digests = new Set(variants.flatMap((v) => [...row.get(v.name).bodies]));
  console.log(`| ${key} | ${cells.join(' | ')} | ${ratios.join(' | ')} | ${digests.size === 1 ? 'yes' : 'NO'} |`);
}
