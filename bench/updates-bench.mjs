#!/usr/bin/env node
// Deliveries benchmark (issue 41): a day's delivery applied to the raw catalog already there.
// Generates N songs as a DDEX delivery (`omm generate --format ddex`: one ERN 4.3 message per
// album and compilation, then `updates/`: a later message for ~1% of albums and a takedown for
// ~0.5%), into bench/.data (the same input bench:import makes, reused when a finished one is
// there); imports everything but `updates/` with `--out`, then applies `updates/` with `--into`,
// each as a child process: wall time, CPU time of the process tree and its peak memory summed
// from /proc every 100 ms (anonymous and total resident). Checks that the raw catalog after the
// delivery holds the songs the generator says the whole batch imports to.
// Usage: npm run bench:updates -- [--songs 1000000] [--seed 1] [--memory 96m] (the imports')
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
rmSync(raw, { recursive: true, force: true });
const memoryArgs = memory ? ['--memory', memory] : [];
let result;
try {
  const base = readdirSync(dir)
    .filter((name) => name !== 'updates' && !name.startsWith('.'))
    .map((name) => join(dir, name));
  log(`importing ${base.length} folders of release messages with --out`);
  const first = await timedOmm(['import', 'ddex', ...base, '--out', raw, ...memoryArgs]);
  const deliveryBytes = dirBytes(join(dir, 'updates'));
  log('applying updates/ with --into');
  const apply = await timedOmm(['import', 'ddex', join(dir, 'updates'), '--into', raw, ...memoryArgs]);
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
  };
} finally {
  rmSync(raw, { recursive: true, force: true });
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
