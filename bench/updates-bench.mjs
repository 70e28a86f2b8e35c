#!/usr/bin/env node
// Deliveries benchmark (issue 41): a day's delivery applied to the raw catalog already there.
// Generates N songs as a DDEX delivery (`omm generate --format ddex`: one ERN 4.3 message per
// album and compilation, then `updates/`: a later message for ~1% of albums and a takedown for
// ~0.5%), into bench/.data (the same input bench:import makes, reused when a finished one is
// there); imports everything but `updates/` with `--out`, then applies `updates/` with `--into`,
// each as a child process: wall time, CPU time of the process tree and its peak memory summed
// from /proc every 100 ms (anonymous and total resident). Checks that the raw catalog after the
// delivery holds the songs the generator says the whole batch imports to.
// With --delta, the catalog is compiled before the delivery, and after it the delivery is
// compiled as a delta (`omm compile --delta`, from the journal --into wrote) and the catalog in
// full, each timed: the ratio is (--into + delta compile) / full compile.
// Usage: npm run bench:updates -- [--songs 1000000] [--seed 1] [--memory 96m] (the imports') [--delta]
//   [--record] (append a row to docs/benchmarks.md, "Deliveries applied with --into")
//   [--keep] (keep the generated input; the raw catalog is always removed)
import { closeSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { arg, numberArg } from './cli-args.mjs';
import { dirBytes, generatedInput, timedOmm, work } from './omm-runs.mjs';
import { recordRow } from './record-row.mjs';

const songs = numberArg('songs', '1000000');
const seed = numberArg('seed', '1');
const memory = arg('memory', null);
const keep = process.argv.includes('--keep');
const record = process.argv.includes('--record');
const log = (line) => console.error(`[bench:updates] ${line}`);
if (!Number.isInteger(songs) || songs < 1) throw new Error('--songs must be a positive integer');

/** A run's figures as recorded: seconds to a tenth, no stdout. */
const measured = ({ seconds, cpuSeconds, peakAnonMiB, peakRssMiB }) => ({
  seconds: Math.round(seconds * 10) / 10,
  cpuSeconds: Math.round(cpuSeconds * 10) / 10,
  peakAnonMiB,
  peakRssMiB,
});

/** Lines of a file (newlines counted a block at a time: a 10M-song songs.csv is larger than a string may be). */
function countLines(path) {
  const block = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(path, 'r');
  let lines = 0;
  try {
    for (let n = readSync(fd, block); n > 0; n = readSync(fd, block)) for (let i = 0; i < n; i++) if (block[i] === 10) lines++;
  } finally {
    closeSync(fd);
  }
  return lines;
}

const { dir, summary } = await generatedInput('ddex', songs, seed, log);
const raw = join(work, `updates-${songs}-${seed}-raw`);
const dist = join(work, `updates-${songs}-${seed}-dist`);
const fullDist = join(work, `updates-${songs}-${seed}-full`);
for (const d of [raw, dist, fullDist]) rmSync(d, { recursive: true, force: true });
/** With --delta: the catalog compiled before the delivery, then the delivery as a delta and the catalog in full. */
const withDelta = process.argv.includes('--delta');
let delta = null;
let full = null;
const memoryArgs = memory ? ['--memory', memory] : [];
let result;
try {
  const base = readdirSync(dir)
    .filter((name) => name !== 'updates' && !name.startsWith('.'))
    .map((name) => join(dir, name));
  log(`importing ${base.length} folders of release messages with --out`);
  const first = await timedOmm(['import', 'ddex', ...base, '--out', raw, ...memoryArgs]);
  if (withDelta) {
    log('compiling the catalog before the delivery');
    await timedOmm(['compile', raw, '--out', dist, '-q']);
  }
  const deliveryBytes = dirBytes(join(dir, 'updates'));
  log('applying updates/ with --into');
  const apply = await timedOmm(['import', 'ddex', join(dir, 'updates'), '--into', raw, ...memoryArgs]);
  if (withDelta) {
    log('compiling the delivery as a delta, then the catalog in full');
    delta = await timedOmm(['compile', raw, '--out', dist, '--delta']);
    full = await timedOmm(['compile', raw, '--out', fullDist, '-q']);
  }
  const songRows = countLines(join(raw, 'songs.csv')) - 1;
  const expected = summary.rows['songs once imported'];
  if (songRows !== expected) throw new Error(`the raw catalog holds ${songRows} songs after the delivery; the generator said ${expected}`);
  const changed = /changed: (.*)/.exec(apply.stdout)?.[1] ?? '';
  const stateMB = Math.round(dirBytes(join(raw, '.omm-stage')) / 1e6);
  const csvMB = Math.round((dirBytes(raw) - dirBytes(join(raw, '.omm-stage'))) / 1e6);
  result = {
    songs,
    seed,
    first: measured(first),
    apply: measured(apply),
    deliveryMiB: Math.round(deliveryBytes / 2 ** 20),
    changed,
    songRows,
    stateMB,
    csvMB,
    ...(delta && full
      ? {
          delta: { ...measured(delta), phases: /phases +(.*)/.exec(delta.stdout)?.[1] ?? '', wrote: /wrote +(.*)/.exec(delta.stdout)?.[1] ?? '' },
          full: measured(full),
          intoAndDeltaOverFull: Math.round(((apply.seconds + delta.seconds) / full.seconds) * 1000) / 1000,
        }
      : {}),
  };
} finally {
  for (const d of [raw, dist, fullDist]) rmSync(d, { recursive: true, force: true });
  if (!keep) rmSync(dir, { recursive: true, force: true });
}

const machine = `${cpus().length} x ${cpus()[0].model}, ${Math.round(totalmem() / 2 ** 30)} GiB`;
const date = new Date().toISOString().slice(0, 10);
console.log(JSON.stringify({ date, machine, node: process.version, ...result }, null, 2));

if (record) {
  const r = result;
  const row = `| ${date} | ${r.songs.toLocaleString('en-US')} | ${r.first.seconds} s, ${r.first.peakAnonMiB} / ${r.first.peakRssMiB} MiB | ${r.deliveryMiB} MiB | **${r.apply.seconds} s**, CPU ${r.apply.cpuSeconds} s, **${r.apply.peakAnonMiB}** / ${r.apply.peakRssMiB} MiB | ${r.changed} | ${r.csvMB} / ${r.stateMB} MB |`;
  recordRow('<!-- bench:updates appends rows above this line -->', row);
}
