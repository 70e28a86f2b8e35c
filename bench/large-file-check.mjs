#!/usr/bin/env node
// A shard larger than one Buffer (4 GiB in Node 20), written and read for real: the size the
// search blob, relations, orders and a song key table reach near 100M songs (docs/scale.md).
// Writes an arrays shard of two u32 arrays (--entries each, 600M by default: 4.8 GB in all, the
// second array wholly past 4 GiB), opens it mapped (in windows) and with positioned reads, checks
// sampled entries, a slice that crosses the 4 GiB line and the last entries against the formula
// that wrote them, runs `verifyAll` (every page's CRC and the file's SHA-256, against what the
// writer computed) under both readers, and removes the file. Needs about 5 GB of disk and 5 GB
// of memory (the arrays are built in memory before they are written).
// Usage: npm run bench:large-files [-- --entries 600000000 --dir <dir>]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArrayTableWriter } from '../dist/index-format/tables/array-table.js';
import { ArrayTable, openShard } from '../dist/index-format/index.js';
import { BODY_OFFSET } from '../dist/index-format/constants.js';
import { arg, numberArg } from './cli-args.mjs';

const entries = numberArg('entries', '600000000');
const dir = mkdtempSync(join(arg('dir', tmpdir()), 'omm-large-file-'));
const path = join(dir, 'large.arr');
const value = (array, i) => (Math.imul(i + 1, 0x9e3779b1) ^ array) >>> 0;
const seconds = (from) => ((performance.now() - from) / 1000).toFixed(1);

try {
  let t = performance.now();
  const arrays = ['first', 'second'].map((name, a) => {
    const values = new Uint32Array(entries);
    for (let i = 0; i < entries; i++) values[i] = value(a, i);
    return /** @type {[string, Uint32Array]} */ ([name, values]);
  });
  console.log(`built 2 x ${entries} entries in ${seconds(t)} s`);
  t = performance.now();
  const writer = new ArrayTableWriter();
  for (const [name, values] of arrays) writer.array(name, values);
  const written = writer.write(path, 'large-file-check');
  arrays.length = 0;
  const size = statSync(path).size;
  console.log(`wrote ${path}: ${size} bytes (${(size / 2 ** 30).toFixed(2)} GiB) in ${seconds(t)} s`);
  if (size <= 2 ** 32) throw new Error(`the file is not larger than 4 GiB (${size} bytes): raise --entries`);

  for (const mode of /** @type {const} */ (['mmap', 'pread'])) {
    t = performance.now();
    const shard = openShard(path, 'ARRS', { mode });
    const table = new ArrayTable(shard);
    const checks = [];
    for (const [a, name] of ['first', 'second'].entries()) {
      const column = table.column(name);
      if (column.length !== entries) throw new Error(`${name} holds ${column.length} entries, not ${entries}`);
      const sample = [0, 1, entries - 1];
      for (let k = 0; k < 2000; k++) sample.push(Math.floor(Math.random() * entries));
      for (const i of sample) if (column.get(i) !== value(a, i)) throw new Error(`${mode}: ${name}[${i}] is ${column.get(i)}, not ${value(a, i)}`);
      checks.push(`${name}: ${sample.length} entries`);
    }
    // A slice across byte 2^32 of the file, in whichever array holds it, and the last 16 Mi entries.
    /** @type {[string, number, number, number][]} */
    const spans = [];
    for (const [a, name] of ['first', 'second'].entries()) {
      const { start, length } = shard.section(name);
      if (start < 2 ** 32 && start + length > 2 ** 32) {
        const cross = Math.floor((2 ** 32 - start) / 4);
        spans.push([name, a, Math.max(0, cross - 1000), Math.min(entries, cross + 1000)]);
      }
    }
    spans.push(['second', 1, entries - 2 ** 24, entries]);
    for (const [name, a, from, to] of spans) {
      const slice = table.column(name).slice(from, to);
      for (let i = from; i < to; i++) if (slice[i - from] !== value(a, i)) throw new Error(`${mode}: ${name}[${i}] differs in a slice`);
      const at = shard.section(name).start;
      checks.push(`${name} ${from}..${to} (file bytes ${at + from * 4}..${at + to * 4})`);
    }
    const read = seconds(t);
    t = performance.now();
    const sha256 = shard.verifyAll();
    if (sha256 !== written.sha256) throw new Error(`${mode}: verifyAll gives ${sha256}, the writer ${written.sha256}`);
    console.log(
      `${mode}${mode === 'mmap' ? (shard.file.mapping ? ' (one mapping)' : ' (in windows)') : ''}: body ${shard.header.bodyLength} bytes from ${BODY_OFFSET}; ${checks.join('; ')} in ${read} s; verifyAll (every page, SHA-256 = writer's) ${seconds(t)} s`,
    );
    shard.close();
  }
  console.log('large-file check: OK');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
