#!/usr/bin/env node
// Sorter micro benchmark (issue 19): N records through the compile's external sorters under a
// memory budget, in the shapes the compile feeds them, timed in CPU seconds (user + sys of this
// process, from process.cpuUsage(): the machine is shared, so wall time is noisy).
//   --sorter external (src/sort/external-sort.ts), --shape:
//     hash  8-byte hashes of local ids (join keys)
//     name  name orders as orders-build sorts them: a generated song name's sort key (NFKC,
//           lower case, code-unit bytes; Zipf words as src/generate draws them, so long shared
//           prefixes and many equal names), a 0x00 and the id rank as 4 big-endian bytes
//     id    local ids as text (`s` and a base-36 number)
//   --sorter fixed (src/sort/fixed-sort.ts), --shape:
//     hash    4 words, all key: a 96-bit id hash and a slot (validate's id sorts)
//     number  3 words, 2 key: a date's order-preserving f64 words (many ties) and an ordinal
//             (orders-build's numeric orders)
//     owner   4 words, all key: owner, position (2 words) and row (relations' groupByPosition)
//     slot    3 words, 1 key: a 32-bit hash, an add sequence and a value (KeyTableSink)
// Keys are generated before the clock starts. Reports CPU and wall seconds for adding (which
// sorts and spills full arenas) and for draining (the last arena's sort and the merge), runs
// spilled, the RSS holding the generated input when the clock starts and the peak RSS from then
// on (VmHWM, reset through /proc/self/clear_refs); the drained order is checked.
// Usage: node bench/sort-bench.mjs [--sorter external|fixed] [--shape ...] [--records 10000000]
//        [--budget-mib 256] [--dist dist]   (--dist: a build of src to time, for before/after)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Prng, Zipf } from '../dist/generate/prng.js';
import { SCRIPTS, VERSION_SUFFIXES } from '../dist/generate/vocabulary.js';
import { writeCodeUnitBytes } from '../dist/compile/orders-build/code-unit-bytes.js';
import { arg, numberArg } from './cli-args.mjs';

const records = numberArg('records', '10000000');
const budget = numberArg('budget-mib', '256') * 2 ** 20;
const sorterKind = arg('sorter', 'external');
const shape = arg('shape', 'hash');
const distArg = arg('dist', new URL('../dist', import.meta.url).pathname);
const dist = isAbsolute(distArg) ? distArg : resolve(distArg);
const load = (file) => import(pathToFileURL(join(dist, 'sort', file)).href);

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** Peak RSS in MiB since the last resetPeak() (VmHWM; the sorts run synchronously, so no timer could sample them). */
const peakRss = () => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024);
const resetPeak = () => {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {}
};
const dir = mkdtempSync(join(tmpdir(), 'omm-sort-bench-'));

/** Song names as src/generate/generate.ts makes them: 1-5 Zipf words of a script, sometimes a featured artist or a version suffix. */
function nameGenerator() {
  const r = new Prng(3, 1);
  const weights = SCRIPTS.reduce((sum, s) => sum + s.weight, 0);
  const zipf = SCRIPTS.map((s) => new Zipf(s.words.length));
  const script = () => {
    let u = r.next() * weights;
    for (let i = 0; i < SCRIPTS.length; i++) if ((u -= SCRIPTS[i].weight) < 0) return i;
    return 0;
  };
  const words = (s, min, max) => {
    const n = r.int(min, max);
    const parts = [];
    for (let i = 0; i < n; i++) {
      const word = SCRIPTS[s].words[zipf[s].sample(r)];
      parts.push(SCRIPTS[s].joiner === ' ' && SCRIPTS[s].name !== 'arabic' ? word[0].toUpperCase() + word.slice(1) : word);
    }
    return parts.join(SCRIPTS[s].joiner);
  };
  return () => {
    let name = words(script(), 1, 5);
    if (r.chance(0.15)) name += ` (feat. ${r.chance(0.3) ? 'The ' : ''}${words(0, 1, 3)})`;
    if (r.chance(0.05)) name += r.pick(VERSION_SUFFIXES);
    return name.normalize('NFKC').toLowerCase();
  };
}

/** All keys in one buffer, record i at [starts[i], starts[i + 1]). */
function externalKeys() {
  let bytes = Buffer.allocUnsafe(records * 24 + 1024);
  const starts = new Uint32Array(records + 1);
  const nextName = nameGenerator();
  let x = 7;
  let used = 0;
  for (let i = 0; i < records; i++) {
    if (bytes.length - used < 1024) {
      const bigger = Buffer.allocUnsafe(bytes.length * 2);
      bytes.copy(bigger, 0, 0, used);
      bytes = bigger;
    }
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    if (shape === 'id') used += bytes.write(`s${x.toString(36)}`, used);
    else if (shape === 'hash') {
      used = bytes.writeUInt32BE(x, used);
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      used = bytes.writeUInt32BE(x, used);
    } else if (shape === 'name') {
      used += writeCodeUnitBytes(nextName(), bytes, used);
      bytes[used++] = 0;
      used = bytes.writeUInt32BE(i, used);
    } else throw new Error(`unknown shape ${shape}`);
    starts[i + 1] = used;
  }
  return { bytes, starts };
}

/** All records, `width` words each. */
function fixedRecords() {
  const spec = { hash: [4, 4], number: [3, 2], owner: [4, 4], slot: [3, 1] }[shape];
  if (!spec) throw new Error(`unknown shape ${shape}`);
  const [width, keyWords] = spec;
  const words = new Uint32Array(records * width);
  const r = new Prng(5, 2);
  const f64 = new Float64Array(1);
  const halves = new Uint32Array(f64.buffer);
  for (let i = 0, at = 0; i < records; i++, at += width) {
    if (shape === 'hash') {
      words[at] = r.uint32();
      words[at + 1] = r.uint32();
      words[at + 2] = r.uint32();
      words[at + 3] = i;
    } else if (shape === 'number') {
      // A release date as YYYYMMDD (releaseDateKey), missing for one in ten.
      if (r.chance(0.1)) words[at] = words[at + 1] = 0xffffffff;
      else {
        f64[0] = r.int(1960, 2025) * 10000 + r.int(1, 12) * 100 + r.int(1, 28);
        words[at] = (halves[1] | 0x80000000) >>> 0;
        words[at + 1] = halves[0];
      }
      words[at + 2] = i;
    } else if (shape === 'owner') {
      // Tracks of albums of about 12 songs, albums in no particular order, positions 1-12 or missing.
      const missing = r.chance(0.02);
      words[at] = (Math.imul(Math.floor(i / 12), 2654435761) >>> 0) >>> 8;
      words[at + 1] = missing ? 0xffffffff : 0;
      words[at + 2] = missing ? 0xffffffff : r.int(1, 12);
      words[at + 3] = i;
    } else {
      words[at] = r.uint32();
      words[at + 1] = i;
      words[at + 2] = r.uint32();
    }
  }
  return { width, keyWords, words };
}

async function runExternal() {
  const { ExternalSorter } = await load('external-sort.js');
  const { bytes, starts } = externalKeys();
  const value = Buffer.alloc(4);
  const sorter = new ExternalSorter(dir, shape, budget);
  const clock = start();
  for (let i = 0; i < records; i++) {
    value.writeUInt32LE(i, 0);
    sorter.add(bytes.subarray(starts[i], starts[i + 1]), value);
  }
  const add = clock.lap();
  const runs = sorter.runCount;
  let count = 0;
  const previous = Buffer.alloc(1024);
  let previousLength = 0;
  let previousValue = -1;
  // The check costs little beside the sort: the first bytes compared and the key copied in JavaScript.
  sorter.drain((buffer, keyStart, keyEnd) => {
    const length = keyEnd - keyStart;
    let i = 0;
    while (i < length && i < previousLength && buffer[keyStart + i] === previous[i]) i++;
    const c = i < length && i < previousLength ? previous[i] - buffer[keyStart + i] : previousLength - length;
    const v = buffer.readUInt32LE(keyEnd);
    if (c > 0 || (c === 0 && v < previousValue)) throw new Error(`out of order at ${count}`);
    for (let j = i; j < length; j++) previous[j] = buffer[keyStart + j];
    previousLength = length;
    previousValue = v;
    count++;
  });
  return { runs, add, drain: clock.lap(), count };
}

async function runFixed() {
  const { FixedSorter } = await load('fixed-sort.js');
  const { width, keyWords, words } = fixedRecords();
  const sorter = new FixedSorter(dir, shape, width, keyWords, budget);
  const clock = start();
  for (let at = 0; at < words.length; at += width) sorter.add(words[at], words[at + 1], words[at + 2], words[at + 3]);
  const add = clock.lap();
  const runs = sorter.runCount;
  let count = 0;
  const previous = new Uint32Array(4);
  sorter.drain((w, at) => {
    // Key words in order; ties by the record's place in the input (its last word for every shape but slot, whose second word is the add sequence).
    const seq = shape === 'slot' ? w[at + 1] : w[at + width - 1];
    let k = 0;
    while (k < keyWords && w[at + k] === previous[k]) k++;
    if (count > 0 && (k < keyWords ? w[at + k] < previous[k] : seq < previous[3])) throw new Error(`out of order at ${count}`);
    for (let j = 0; j < keyWords; j++) previous[j] = w[at + j];
    previous[3] = seq;
    count++;
  });
  return { runs, add, drain: clock.lap(), count };
}

/** RSS when the clock starts: the generated input, which the peak includes. */
let inputRss = 0;

function start() {
  resetPeak();
  inputRss = Math.round(process.memoryUsage.rss() / 2 ** 20);
  let cpu = cpuSeconds();
  let wall = performance.now();
  return {
    lap() {
      const c = cpuSeconds();
      const w = performance.now();
      const lap = { cpu: +(c - cpu).toFixed(2), wall: +((w - wall) / 1000).toFixed(2) };
      cpu = c;
      wall = w;
      return lap;
    },
  };
}

const result = sorterKind === 'fixed' ? await runFixed() : await runExternal();
const peak = peakRss();
rmSync(dir, { recursive: true, force: true });
if (result.count !== records) throw new Error(`drained ${result.count} of ${records}`);
console.log(
  JSON.stringify({
    sorter: sorterKind,
    shape,
    records,
    budgetMiB: budget / 2 ** 20,
    dist: distArg,
    runs: result.runs,
    cpuSeconds: +(result.add.cpu + result.drain.cpu).toFixed(2),
    addCpu: result.add.cpu,
    drainCpu: result.drain.cpu,
    wallSeconds: +(result.add.wall + result.drain.wall).toFixed(2),
    inputRssMiB: inputRss,
    peakRssMiB: peak,
  }),
);
