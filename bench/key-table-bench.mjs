#!/usr/bin/env node
// Key table writer benchmark (issue 19): N keys through KeyTableSink (src/compile/key-table-sink.ts,
// out of core within a memory budget) and, for comparison, KeyTableBuilder (everything in a JS Map
// and an in-memory slot array), each case in a fresh child process. Key shapes: song ids ("s" and
// a base-36 number, in ordinal order) and ISRCs (12 characters, country, registrant, year,
// designation; 0.5% repeat the previous song's, as the generator makes them). Reports add time
// (key generation included), write time, CPU time of both (user + system: on a busy machine the
// steadier figure), shard size, and memory: peak anonymous RSS
// of the child sampled from /proc/<pid>/status every 20 ms (RssAnon), and its VmHWM (peak resident,
// file pages of the mapped key column included) read at the end. Every 97th key is looked up in
// the written table, and a miss checked, after the timing.
// Run `npm run build` first: it reads dist/.
// Usage: node bench/key-table-bench.mjs [--keys 1000000,10000000] [--shapes id,isrc]
//        [--budget-mib 256] [--builder-up-to 1000000] [--writers sink,builder]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, numberArg } from './cli-args.mjs';
import { sampleTreeMemory } from './load/proc-tree.mjs';

const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'JP', 'SE', 'BR', 'KR'];

/** The i-th key of a shape; `isrc` repeats the previous key for 0.5% of songs. */
function keyMaker(shape) {
  if (shape === 'id') return (i) => `s${i.toString(36)}`;
  let x = 11;
  let previous = '';
  return (i) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    if (previous && x % 200 === 0) return previous;
    const year = 60 + (x % 65);
    previous = `${COUNTRIES[(x >>> 8) % COUNTRIES.length]}${Math.floor(i / 100000)
      .toString(36)
      .toUpperCase()
      .padStart(3, '0')}${String(year % 100).padStart(2, '0')}${String(i % 100000).padStart(5, '0')}`;
    return previous;
  };
}

function status(key) {
  return Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
}

async function child() {
  const writerKind = arg('writer', 'sink');
  const keys = numberArg('keys', '1000000');
  const shape = arg('shape', 'id');
  const budget = numberArg('budget-mib', '256') * 2 ** 20;
  const { KeyTable, KeyTableBuilder } = await import('../dist/index-format/tables/key-table.js');
  const { openShard } = await import('../dist/index-format/shards/shard-reader.js');
  const dir = mkdtempSync(join(tmpdir(), 'omm-key-bench-'));
  try {
    let writer;
    let spill;
    if (writerKind === 'sink') {
      const { KeyTableSink } = await import('../dist/compile/key-table-sink.js');
      const { SpillDir } = await import('../dist/compile/spill/spill-dir.js');
      spill = SpillDir.create(dir);
      writer = new KeyTableSink('song.id', spill, budget);
    } else {
      writer = new KeyTableBuilder('song.id');
    }
    const key = keyMaker(shape);
    const cpu = process.cpuUsage();
    let t = performance.now();
    for (let i = 0; i < keys; i++) writer.add(key(i), i);
    const addSeconds = (performance.now() - t) / 1000;
    const path = join(dir, 'table.keys');
    t = performance.now();
    const written = writer.write(path, 'bench');
    const writeSeconds = (performance.now() - t) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    const hwmKiB = status('VmHWM');
    spill?.remove();

    const shard = openShard(path);
    const table = new KeyTable(shard);
    const again = keyMaker(shape);
    let checked = 0;
    for (let i = 0; i < keys; i++) {
      const k = again(i);
      if (i % 97 !== 0) continue;
      if (!table.getAll(k).includes(i)) throw new Error(`${k} does not list ${i}`);
      checked++;
    }
    if (table.get('no such key') !== -1) throw new Error('a miss was found');
    const meta = shard.meta;
    shard.file.close();
    process.stdout.write(
      `${JSON.stringify({ addSeconds, writeSeconds, cpuSeconds, hwmKiB, bytes: written.size, count: meta.count, capacity: meta.capacity, checked })}\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runCase(writer, keys, shape, budgetMiB) {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [process.argv[1], '--child', '--writer', writer, '--keys', String(keys), '--shape', shape, '--budget-mib', String(budgetMiB)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const memory = sampleTreeMemory(proc.pid, 20);
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.on('exit', (code) => {
      const peak = memory.stop();
      if (code !== 0) return reject(new Error(`${writer} ${shape} ${keys}: exit ${code}`));
      resolve({ ...JSON.parse(out), peakAnonKiB: peak.anon });
    });
  });
}

async function main() {
  const sizes = arg('keys', '1000000,10000000').split(',').map(Number);
  const shapes = arg('shapes', 'id,isrc').split(',');
  const writers = arg('writers', 'sink,builder').split(',');
  const budgetMiB = numberArg('budget-mib', '256');
  const builderUpTo = numberArg('builder-up-to', '1000000');
  console.log(
    `node ${process.version}, budget ${budgetMiB} MiB for the sink, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
  console.log('| writer | shape | keys | distinct | add s | write s | total s | CPU s | peak anon MiB | VmHWM MiB | shard MiB |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const keys of sizes) {
    for (const shape of shapes) {
      for (const writer of writers) {
        if (writer === 'builder' && keys > builderUpTo) continue;
        const r = await runCase(writer, keys, shape, budgetMiB);
        const mib = (kib) => Math.round(kib / 1024);
        console.log(
          `| ${writer} | ${shape} | ${keys.toLocaleString('en')} | ${r.count.toLocaleString('en')} | ${r.addSeconds.toFixed(2)} | ${r.writeSeconds.toFixed(2)} | ${(r.addSeconds + r.writeSeconds).toFixed(2)} | ${r.cpuSeconds.toFixed(2)} | ${mib(r.peakAnonKiB)} | ${mib(r.hwmKiB)} | ${Math.round(r.bytes / 2 ** 20)} |`,
        );
      }
    }
  }
}

if (process.argv.includes('--child')) await child();
else await main();
