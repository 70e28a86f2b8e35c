#!/usr/bin/env node
// Scale benchmark: generate N songs, compile them (wall time, CPU time of the whole process tree,
// peak RSS of the tree sampled from /proc every 100 ms: anonymous and total), verify, serve
// (process start to first answer: a song by id, warm and with every cache dropped), then wrk runs of song by id and of one-word search
// (a warm-up, then 3 timed runs: medians) against the bare node:http ceiling measured just before and after. Appends one row to docs/benchmarks.md
// (section "Scale") and removes its data unless --keep.
// Usage: npm run bench:scale -- --songs N [--seed 1] [--seconds 10] [--warmup 2] [--compile-args "..."] [--keep] [--no-doc]
// [--reuse]: serve the snapshot a --keep run left (no generate, compile or verify; no doc row).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../dist/catalog/catalog.js';
import { arg, numberArg, seeded } from './cli-args.mjs';
import { dirBytes, timedOmm } from './omm-runs.mjs';
import { startProcess, startServer } from './load/server-process.mjs';
import { loadKinds } from './load/load-kinds.mjs';
import { ensureWrk, measureWrk, runWrk, writePaths } from './load/wrk.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const songs = numberArg('songs', '1000000');
const seed = arg('seed', '1');
const seconds = numberArg('seconds', '10');
const compileArgs = arg('compile-args', '').split(' ').filter(Boolean);
const warmup = numberArg('warmup', '2');
const reuse = process.argv.includes('--reuse');
const keep = reuse || process.argv.includes('--keep');
const writeDoc = !reuse && !process.argv.includes('--no-doc');
const work = join(root, 'bench', '.data');
const raw = join(work, `scale-raw-${songs}-${seed}`);
const dist = join(work, `scale-dist-${songs}-${seed}`);
mkdirSync(work, { recursive: true });
const wrkVersion = ensureWrk();
const log = (line) => console.error(`[bench:scale] ${line}`);

/** Runs `omm <args>` to the end; wall and CPU seconds of its tree, and its peak memory. */

log(`${songs.toLocaleString('en-US')} songs, seed ${seed}; ${wrkVersion}`);
let generate = null;
/** @type {any} */
let compile = null;
let verify = null;
let snapshotBytes = 0;
if (reuse) {
  if (!existsSync(join(dist, 'current'))) throw new Error(`--reuse: no snapshot in ${dist} (run once with --keep)`);
  snapshotBytes = dirBytes(join(dist, readFileSync(join(dist, 'current'), 'utf8').trim()));
} else {
  if (!existsSync(join(raw, 'songs.csv'))) {
    log('generating');
    generate = await timedOmm(['generate', '--songs', String(songs), '--seed', seed, '--out', raw]);
  }
  rmSync(dist, { recursive: true, force: true });
  // The generator's files go to disk first, so the kernel's writeback of them is not timed as
  // the compile's.
  spawnSync('sync');
  log('compiling');
  compile = await timedOmm(['compile', raw, '--out', dist, ...compileArgs]);
  const snapshotDir = join(dist, readFileSync(join(dist, 'current'), 'utf8').trim());
  snapshotBytes = dirBytes(snapshotDir);
  log('verifying');
  verify = await timedOmm(['verify', dist]);
}

// Requests: the load bench's song by id and one-word search (bench/load/load-kinds.mjs).
const cat = Catalog.open(dist);
const kinds = loadKinds(cat, seeded(5), 5000);
// Start to first answer: a song none of the sample reads, by id, from process start.
const firstAnswerPath = `/v1/song/${encodeURIComponent(cat.song(cat.count('song') - 1).id)}`;
cat.close();
const kindNamed = (name) => {
  const kind = kinds.find((k) => k.name === name);
  if (!kind) throw new Error(`no load kind named ${name}`);
  return kind;
};
const paths = Object.fromEntries(['song by id', 'one-word search'].map((name) => [name, kindNamed(name).paths.v1]));
const pathFile = (name, list) => writePaths(join(work, `scale-${name.replace(/\W+/g, '-')}.paths`), list);

/**
 * Requests every path once, eight at a time, before wrk runs: a snapshot larger than the page
 * cache answers its first request for a page from disk, and that read blocks the event loop. The
 * timed run then measures the working set warm, at 1M and at 30M alike (a cold random read is a
 * property of the disk, recorded separately). Not a load measurement: fetch is only a loop here.
 */
async function touchEveryPath(origin, list) {
  let at = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (at < list.length) {
        const path = list[at++];
        // The server closes a connection after its request limit: a request caught by that is retried.
        for (let tries = 1; ; tries++) {
          try {
            await (await fetch(`${origin}${path}`)).arrayBuffer();
            break;
          } catch (err) {
            if (tries === 3) throw err;
          }
        }
      }
    }),
  );
}

/** Drops the page cache (root on Linux); false where it cannot. */
function dropCaches() {
  try {
    spawnSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
    return true;
  } catch {
    return false;
  }
}

/** ms from spawning `omm serve` to its first answer (a song by id); with `cold`, every cache dropped first. */
async function startToFirstAnswer(cold) {
  if (cold && !dropCaches()) return null;
  const s = await startServer(dist, { port: 18603, readyPath: firstAnswerPath });
  await s.close();
  return Math.round(s.readyMs);
}

log('opening');
const firstAnswer = { warm: await startToFirstAnswer(false), cold: await startToFirstAnswer(true) };
firstAnswer.warmAgain = await startToFirstAnswer(false);

log('serving');
const ceiling = await startProcess(join(root, 'bench', 'peers', 'ceiling-server.mjs'), ['18601'], { port: 18601, readyPath: '/', readyStatus: null });
const server = await startServer(dist, { port: 18602 });
const load = {};
let served;
try {
  for (const [kind, list] of Object.entries(paths)) {
    const file = pathFile(kind, list);
    const ceilingRun = () => {
      runWrk(ceiling.origin, file, { seconds: 2 }); // warm-up
      return runWrk(ceiling.origin, file, { seconds });
    };
    const before = ceilingRun();
    await touchEveryPath(server.origin, list);
    const ours = measureWrk(server.origin, file, { warmup, runs: 3, seconds }).median;
    const after = ceilingRun();
    const ceilingRps = (before.reqPerSec + after.reqPerSec) / 2;
    load[kind] = { ...ours, ratio: Math.round((ours.reqPerSec / ceilingRps) * 100) / 100, ceilingRps, ceilingP99Ms: [before.p99Ms, after.p99Ms] };
    rmSync(file, { force: true });
  }
  served = server.memory();
} finally {
  await server.close();
  await ceiling.close();
}

const result = {
  date: new Date().toISOString().slice(0, 10),
  machine: `${cpus().length} x ${cpus()[0].model}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
  node: process.version,
  wrk: wrkVersion,
  songs,
  compileArgs: compileArgs.join(' '),
  generate,
  compile,
  snapshotGiB: Math.round((snapshotBytes / 2 ** 30) * 100) / 100,
  bytesPerSong: Math.round(snapshotBytes / songs),
  verifySeconds: verify ? Math.round(verify.seconds * 10) / 10 : null,
  startToFirstAnswerMs: firstAnswer,
  servedRssMiB: served,
  load,
};
console.log(JSON.stringify(result, null, 2));

if (writeDoc) {
  const doc = join(root, 'docs', 'benchmarks.md');
  const marker = '<!-- bench:scale appends rows above this line -->';
  let text = readFileSync(doc, 'utf8');
  if (!text.includes(marker)) {
    text += `\n## Scale (\`npm run bench:scale -- --songs N\`)\n\nbench/scale-bench.mjs generates N songs, compiles them, verifies, serves and drives the server with wrk (\`-t2 -c64\`, server on core 0, wrk on core 1, rotating paths, a 2 s warm-up then ${seconds} s), the bare node:http ceiling measured just before each kind. Memory is the compile's whole process tree, summed from /proc every 100 ms: anonymous (its own) and total resident. CPU is user + system of the tree. Each run appends a row.\n\n| date | songs | compile args | compile s | CPU s | peak anon / total MiB | snapshot GiB | B/song | verify s | start to answer ms | song by id req/s (ratio), p99 ms | one-word search req/s (ratio), p99 ms |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n${marker}\n`;
  }
  const c = compile;
  const cell = (k) => `${load[k].reqPerSec.toLocaleString('en-US')} (${load[k].ratio}), ${load[k].p99Ms}`;
  const row = `| ${result.date} | ${songs.toLocaleString('en-US')} | ${result.compileArgs || 'default'} | ${c.seconds.toFixed(1)} | ${c.cpuSeconds.toFixed(1)} | ${c.peakAnonMiB.toLocaleString('en-US')} / ${c.peakRssMiB.toLocaleString('en-US')} | ${result.snapshotGiB} | ${result.bytesPerSong.toLocaleString('en-US')} | ${result.verifySeconds} | ${firstAnswer.warmAgain} / ${firstAnswer.cold ?? '—'} | ${cell('song by id')} | ${cell('one-word search')} |`;
  writeFileSync(doc, text.replace(marker, `${row}\n${marker}`));
  log(`row appended to docs/benchmarks.md`);
}
if (!keep) {
  rmSync(dist, { recursive: true, force: true });
  rmSync(raw, { recursive: true, force: true });
}
