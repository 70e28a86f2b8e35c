#!/usr/bin/env node
// Delta compiles (issue 44): the bench snapshot (bench:load's, made when missing) plus N days of
// changes (src/generate/daily-changes.ts at DAILY_RATES: 0.5% of albums taken down, 1% of songs
// renamed and re-ranked, a new release), each day's raw catalog written with its change journal
// as `omm import --into` leaves it, then compiled as a delta (`omm compile --delta`) over the
// segmented dist and in full beside it, each as a child process: wall time and peak memory of
// the process tree summed from /proc, the delta's phases. The catalog is held in memory to make
// the days (NODE_OPTIONS=--max-old-space-size=12000 at 1M).
// Usage: npm run bench:delta -- [--songs 1000000] [--days 1] [--record] (a row in docs/benchmarks.md, "Delta compiles")
import { rmSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { numberArg } from './cli-args.mjs';
import { segmentedDist } from './load/segments-dist.mjs';
import { recordRow } from './record-row.mjs';
import { benchCatalog, work } from './load/bench-catalog.mjs';

const songs = numberArg('songs', '1000000');
const days = numberArg('days', '1');
const record = process.argv.includes('--record');
const log = (line) => console.error(`[bench:delta] ${line}`);

const { dist, raw } = benchCatalog(songs, log);
const to = join(work, `delta-bench-${songs}`);
const compacted = join(work, `delta-bench-${songs}-full`);
let deltas;
try {
  deltas = await segmentedDist(dist, raw, days, { to, compacted, scratch: join(work, 'delta-bench-raw'), log });
} finally {
  for (const dir of [to, compacted]) rmSync(dir, { recursive: true, force: true });
}
const machine = `${cpus().length} x ${cpus()[0].model}, ${Math.round(totalmem() / 2 ** 30)} GiB`;
const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
console.log(JSON.stringify({ date, machine, node: process.version, songs, deltas }, null, 2));
if (record) {
  for (const d of deltas) {
    const row = `| ${date} UTC | ${songs.toLocaleString('en-US')} | ${d.day} | **${d.deltaSeconds} s**, ${d.deltaPeakAnonMiB} MiB | ${d.fullSeconds} s, ${d.fullPeakAnonMiB} MiB | **${(d.deltaSeconds / d.fullSeconds).toFixed(2)}** | ${d.compiled} | ${d.held} | ${d.wrote} | ${d.phases} |`;
    recordRow('<!-- bench:delta appends rows above this line -->', row);
  }
}
