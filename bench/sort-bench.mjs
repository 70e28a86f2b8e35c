#!/usr/bin/env node
// External sort micro benchmark (issue 19's engine question): N records through
// src/compile/spill/external-sort.ts under a memory budget, for two key shapes the compile
// sorts: 8-byte hashes of local ids (join keys) and name sort keys (UTF-8 text of ~20 bytes,
// many shared prefixes), and local ids as text (`s` and a base-36 number, as DuckDB's appender
// comparison in docs/scale.md feeds it). Reports add and merge rates, runs spilled, and peak RSS of this process.
// Usage: node bench/sort-bench.mjs [--records 10000000] [--budget-mib 256] [--shape hash|name|id]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExternalSorter } from '../dist/compile/spill/external-sort.js';
import { arg, seeded } from './cli-args.mjs';

const records = Number(arg('records', '10000000'));
const budget = Number(arg('budget-mib', '256')) * 2 ** 20;
const shape = arg('shape', 'hash');
const dir = mkdtempSync(join(tmpdir(), 'omm-sort-bench-'));
const next = seeded(3);
const words = ['the', 'love', 'night', 'song', 'blue', 'river', 'fire', 'heart', 'dance', 'moon', 'road', 'home'];
let peak = 0;
const sample = () => (peak = Math.max(peak, process.memoryUsage.rss()));
const timer = setInterval(sample, 50);

const key = Buffer.alloc(64);
let x = 7;
const value = Buffer.alloc(4);
const sorter = new ExternalSorter(dir, shape, budget);
let t = performance.now();
for (let i = 0; i < records; i++) {
  let length = 8;
  if (shape === 'id') {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    length = key.write(`s${x.toString(36)}`, 0);
  } else if (shape === 'hash') {
    key.writeUInt32BE((next() * 2 ** 32) >>> 0, 0);
    key.writeUInt32BE((next() * 2 ** 32) >>> 0, 4);
  } else {
    const text = `${words[Math.floor(next() * words.length)]} ${words[Math.floor(next() * words.length)]} ${Math.floor(next() * 1e6)}`;
    length = key.write(text, 0);
  }
  value.writeUInt32LE(i, 0);
  sorter.add(key.subarray(0, length), value);
}
const addSeconds = (performance.now() - t) / 1000;
const runs = sorter.runCount;
t = performance.now();
let count = 0;
const previous = Buffer.alloc(64);
let previousLength = 0;
sorter.drain((buffer, keyStart, keyEnd) => {
  if (previous.compare(buffer, keyStart, keyEnd, 0, previousLength) > 0) throw new Error('out of order');
  previousLength = buffer.copy(previous, 0, keyStart, keyEnd);
  count++;
});
const mergeSeconds = (performance.now() - t) / 1000;
clearInterval(timer);
sample();
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ records, shape, budgetMiB: budget / 2 ** 20, runs, addSeconds: +addSeconds.toFixed(2), mergeSeconds: +mergeSeconds.toFixed(2), recordsPerSecond: Math.round(records / (addSeconds + mergeSeconds)), peakRssMiB: Math.round(peak / 2 ** 20), count }));
