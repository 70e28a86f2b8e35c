#!/usr/bin/env node
// Entity orders benchmark (issue 19): one entity type's idRank, orders and ranks, computed out
// of core by buildEntityOrders (src/compile/orders-build/, sorters and column files within
// --budget-mib). Ids like the generator's (`s0`, `s1`, ... in ordinal order), names of 1-4 words
// from a small vocabulary (many shared), dateAdded, popularity (0-100, many ties) and releaseDate
// with a few missing. The run is its own child process; this one samples the child's
// /proc/<pid>/status every 50 ms (peak RssAnon: the process's own memory, overall and per phase;
// RssFile: mapped column pages, which the kernel may drop) and the child reports its VmHWM.
// Inputs (column files) are prepared before the clock starts. The in-memory orders it was once
// compared with left the compile (they live on as a test oracle, test/helpers/in-memory-orders.ts);
// that comparison at 1M is in docs/scale.md, and 434bfde^ is the last commit that can rerun it.
// Usage: npm run build && node bench/orders-bench.mjs [--entities 1000000] [--budget-mib 256]
//          [--dir <scratch dir, default the OS temp dir>]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, numberArg, seeded } from './cli-args.mjs';
import { treeMemoryKiB } from './load/proc-tree.mjs';
import { SCRIPTS } from '../dist/generate/vocabulary.js';

const entities = numberArg('entities', '1000000');
const budgetMiB = numberArg('budget-mib', '256');
const MiB = (kib) => Math.round(kib / 1024);
/** The child's CPU seconds (user + system) by phase: less sensitive than wall time to a busy machine. */
const cpuByPhase = {};
let cpuMark = 0;

if (process.argv.includes('--child')) await child();
else await parent();

async function parent() {
  const dir = mkdtempSync(join(arg('dir', tmpdir()), 'omm-orders-bench-'));
  const started = performance.now();
  const proc = spawn(
    process.execPath,
    ['--max-old-space-size=16384', process.argv[1], '--child', '--entities', String(entities), '--budget-mib', String(budgetMiB), '--dir', dir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // Peaks over the whole run, and per phase: the child prints a line as each phase ends.
  const peak = { anon: 0, file: 0 };
  let phasePeak = 0;
  const phasePeaks = {};
  const sample = () => {
    const now = treeMemoryKiB(proc.pid);
    peak.anon = Math.max(peak.anon, now.anon);
    peak.file = Math.max(peak.file, now.file);
    phasePeak = Math.max(phasePeak, now.anon);
  };
  const timer = setInterval(sample, 50);
  /** @type {Record<string, unknown>} */
  let report = {};
  let pending = '';
  proc.stdout.on('data', (chunk) => {
    pending += chunk;
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const line = JSON.parse(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      if (line.phase) {
        sample();
        phasePeaks[line.phase] = MiB(phasePeak);
        phasePeak = 0;
      } else report = line;
    }
  });
  const code = await new Promise((resolve) => proc.on('close', resolve));
  clearInterval(timer);
  rmSync(dir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`the child exited with ${code}`);
  console.log(
    JSON.stringify({
      entities,
      budgetMiB,
      ...report,
      peakRssAnonMiB: MiB(peak.anon),
      peakRssAnonMiBByPhase: phasePeaks,
      peakRssFileMiB: MiB(peak.file),
      processSeconds: +((performance.now() - started) / 1000).toFixed(1),
    }),
  );
}

/** The entities' values, drawn from a fixed seed. */
function* entityValues() {
  const vocabulary = [...SCRIPTS[0].words, ...SCRIPTS[1].words];
  const next = seeded(19);
  const pick = () => vocabulary[Math.floor(next() * vocabulary.length)];
  const day = 86_400_000;
  for (let i = 0; i < entities; i++) {
    const words = 1 + Math.floor(next() * 4);
    let name = pick();
    for (let w = 1; w < words; w++) name += ` ${pick()}`;
    if (next() < 0.5) name = name[0].toUpperCase() + name.slice(1);
    const dateAdded = next() < 0.05 ? Number.NaN : Date.UTC(2015, 0, 1) + Math.floor(next() * 4000) * day + Math.floor(next() * day);
    const popularity = next() < 0.03 ? Number.NaN : Math.floor(next() * 101);
    const releaseDate =
      next() < 0.02 ? Number.NaN : (1960 + Math.floor(next() * 66)) * 10000 + (1 + Math.floor(next() * 12)) * 100 + 1 + Math.floor(next() * 28);
    yield { id: `s${i}`, name, dateAdded, popularity, releaseDate };
  }
}

/** Tells the parent a phase has ended, so it can attribute its memory samples (a pipe write is synchronous on Linux). */
function announce(phase) {
  const cpu = process.cpuUsage();
  const seconds = (cpu.user + cpu.system - cpuMark) / 1e6;
  cpuMark = cpu.user + cpu.system;
  cpuByPhase[phase] = +seconds.toFixed(2);
  process.stdout.write(`${JSON.stringify({ phase })}\n`);
}

function status(key) {
  return Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
}

async function child() {
  const dir = arg('dir', tmpdir());
  const budget = budgetMiB * 2 ** 20;
  let t = performance.now();
  const phases = {};
  const { NumberColumnWriter, StringColumnWriter, StringColumn, mapF64Column } = await import('../dist/compile/spill/columns.js');
  const { SpillDir } = await import('../dist/compile/spill/spill-dir.js');
  const { buildEntityOrders } = await import('../dist/compile/orders-build/index.js');
  const ids = new StringColumnWriter(join(dir, 'ids'));
  const names = new StringColumnWriter(join(dir, 'names'));
  const numbers = ['dateAdded', 'popularity', 'releaseDate'].map((name) => new NumberColumnWriter(join(dir, name), 'f64'));
  for (const e of entityValues()) {
    ids.push(e.id);
    names.push(e.name);
    numbers[0].push(e.dateAdded);
    numbers[1].push(e.popularity);
    numbers[2].push(e.releaseDate);
  }
  for (const w of [ids, names, ...numbers]) w.finish();
  const inputs = {
    count: entities,
    ids: StringColumn.open(join(dir, 'ids')),
    names: StringColumn.open(join(dir, 'names')),
    dateAdded: mapF64Column(join(dir, 'dateAdded')),
    popularity: mapF64Column(join(dir, 'popularity')),
    releaseDate: mapF64Column(join(dir, 'releaseDate')),
  };
  const prepareSeconds = (performance.now() - t) / 1000;
  announce('prepare');
  const before = { rssAnonMiB: MiB(status('RssAnon')), vmHwmMiB: MiB(status('VmHWM')) };
  const spill = SpillDir.create(dir);
  t = performance.now();
  const files = buildEntityOrders(inputs, spill, budget, {
    label: 'songs',
    onPhase: (name, seconds) => ((phases[name] = +((phases[name] ?? 0) + seconds).toFixed(2)), announce(name)),
  });
  /** @type {Record<string, unknown>} */
  const result = {
    prepareSeconds: +prepareSeconds.toFixed(1),
    before,
    seconds: +((performance.now() - t) / 1000).toFixed(2),
    phases,
    orders: files.orders.size,
  };
  result.cpuSecondsByPhase = cpuByPhase;
  result.vmHwmMiB = MiB(status('VmHWM'));
  result.rssAnonEndMiB = MiB(status('RssAnon'));
  console.log(JSON.stringify(result));
}
