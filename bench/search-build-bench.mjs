#!/usr/bin/env node
// Search index build benchmark (issue 19): the songs shard of N generated songs, built out of core
// by buildSearchIndex (src/compile/search-build/: sorters and column files within --budget-mib),
// the one writer of the format (the in-memory writer it was once compared with is gone; the
// comparison is in docs/scale.md). Songs get the generator's names (1-5 words from
// src/generate/vocabulary.ts with Zipf frequencies, per script, some "(feat. artist)" and version
// suffixes); N/20 artists named the same way; each song credits its album artist and 0-2 more,
// and popularity order is a seeded shuffle. The inputs are written once as column files, before
// any clock starts. The build runs in its own child process; this one samples the child's
// /proc/<pid>/status every 50 ms (peak RssAnon, the process's own memory, overall and per phase;
// RssFile: mapped pages, which the kernel may drop) and the child reports its VmHWM and the
// shard's digest. The generator's vocabulary makes a few
// hundred terms; --rare-words P swaps each word, with probability P, for one of about 20 million
// made-up words (4-9 letters), for the millions of terms a real catalog has.
// Usage: npm run build && node bench/search-build-bench.mjs [--songs 1000000] [--budget-mib 256]
//          [--rare-words 0] [--dir <scratch dir, default the OS temp dir>]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, numberArg } from './cli-args.mjs';
import { treeMemoryKiB } from './load/proc-tree.mjs';
import { NumberColumnWriter, StringColumn, StringColumnWriter } from '../dist/compile/spill/columns.js';
import { Prng, Zipf } from '../dist/generate/prng.js';
import { SCRIPTS, VERSION_SUFFIXES } from '../dist/generate/vocabulary.js';

const songs = numberArg('songs', '1000000');
const budgetMiB = numberArg('budget-mib', '256');
const rareWords = numberArg('rare-words', '0');
const MiB = (kib) => Math.round(kib / 1024);

if (process.argv.includes('--child')) await child(arg('inputs'));
else await parent();

async function parent() {
  const dir = mkdtempSync(join(arg('dir', tmpdir()), 'omm-search-bench-'));
  try {
    let t = performance.now();
    writeInputs(join(dir, 'inputs'));
    console.log(JSON.stringify({ songs, rareWords, inputsSeconds: +((performance.now() - t) / 1000).toFixed(1) }));
    {
      const out = join(dir, 'ours');
      mkdirSync(out);
      t = performance.now();
      const proc = spawn(
        process.execPath,
        ['--max-old-space-size=16384', process.argv[1], '--child', '--inputs', join(dir, 'inputs'), '--out', out, '--budget-mib', String(budgetMiB)],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const peak = { anon: 0, file: 0 };
      let phasePeak = 0;
      const phases = {};
      const sample = () => {
        const now = treeMemoryKiB(proc.pid);
        peak.anon = Math.max(peak.anon, now.anon);
        peak.file = Math.max(peak.file, now.file);
        phasePeak = Math.max(phasePeak, now.anon);
      };
      const timer = setInterval(sample, 50);
      /** @type {any} the child's last line */
      let report;
      let pending = '';
      proc.stdout.on('data', (chunk) => {
        pending += chunk;
        for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
          const line = JSON.parse(pending.slice(0, nl));
          pending = pending.slice(nl + 1);
          if (line.phase) {
            sample();
            phases[line.phase] = { seconds: line.seconds, cpuSeconds: line.cpuSeconds, peakAnonMiB: MiB(phasePeak) };
            phasePeak = 0;
          } else report = line;
        }
      });
      const code = await new Promise((resolve) => proc.on('close', resolve));
      clearInterval(timer);
      if (code !== 0 || !report) throw new Error(`the build exited with code ${code}`);
      console.log(
        JSON.stringify({
          songs,
          budgetMiB,
          sha256: report.sha256,
          seconds: report.seconds,
          cpuSeconds: report.cpuSeconds,
          peakRssAnonMiB: MiB(peak.anon),
          peakRssFileMiB: MiB(peak.file),
          vmHwmMiB: report.vmHwmMiB,
          shardMiB: report.shardMiB,
          terms: report.terms,
          phases,
        }),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The songs' input columns: ordinals in popularity order, names, credits and artist names. */
function writeInputs(dir) {
  mkdirSync(dir);
  const rng = new Prng(19, 1);
  const weights = SCRIPTS.reduce((sum, s) => sum + s.weight, 0);
  const zipfs = SCRIPTS.map((s) => new Zipf(s.words.length));
  const pickScript = () => {
    let u = rng.next() * weights;
    for (let i = 0; i < SCRIPTS.length; i++) if ((u -= SCRIPTS[i].weight) < 0) return i;
    return 0;
  };
  const rare = () => {
    let w = '';
    for (let i = rng.int(4, 9); i > 0; i--) w += String.fromCharCode(97 + rng.int(0, 25));
    return w;
  };
  const words = (script, min, max) => {
    const s = SCRIPTS[script];
    const parts = [];
    for (let i = rng.int(min, max); i > 0; i--) {
      const word = rareWords > 0 && rng.chance(rareWords) ? rare() : s.words[zipfs[script].sample(rng)];
      parts.push(s.joiner === ' ' && s.name !== 'arabic' ? word[0].toUpperCase() + word.slice(1) : word);
    }
    return parts.join(s.joiner);
  };
  const artistCount = Math.ceil(songs / 20);
  const artistScripts = new Uint8Array(artistCount);
  const artistNames = new StringColumnWriter(join(dir, 'artist-names'));
  for (let a = 0; a < artistCount; a++) {
    artistScripts[a] = pickScript();
    artistNames.push(rng.chance(0.3) ? `The ${words(0, 1, 2)}` : words(artistScripts[a], 1, 3));
  }
  artistNames.finish();
  const artistColumn = StringColumn.open(join(dir, 'artist-names'));
  const names = new StringColumnWriter(join(dir, 'names'));
  const offsets = new NumberColumnWriter(join(dir, 'credit-offsets'), 'u32');
  const targets = new NumberColumnWriter(join(dir, 'credit-targets'), 'u32');
  offsets.push(0);
  let credits = 0;
  for (let s = 0; s < songs; s++) {
    const artist = Math.min(artistCount - 1, Math.floor((s * artistCount) / songs));
    const featured = [];
    const extra = rng.next() < 0.7 ? 0 : rng.next() < 0.75 ? 1 : 2;
    for (let k = 0; k < extra; k++) {
      const other = rng.int(0, artistCount - 1);
      if (other !== artist && !featured.includes(other)) featured.push(other);
    }
    let name = words(artistScripts[artist], 1, 5);
    if (featured.length > 0 && rng.chance(0.3)) name += ` (feat. ${artistColumn.get(featured[0])})`;
    if (rng.chance(0.05)) name += rng.pick(VERSION_SUFFIXES);
    names.push(name);
    for (const a of [artist, ...featured]) targets.push(a);
    offsets.push((credits += 1 + featured.length));
  }
  names.finish();
  offsets.finish();
  targets.finish();
  const ordinals = new Uint32Array(songs);
  for (let i = 0; i < songs; i++) ordinals[i] = i;
  for (let i = songs - 1; i > 0; i--) {
    const j = rng.int(0, i);
    const o = ordinals[i];
    ordinals[i] = ordinals[j];
    ordinals[j] = o;
  }
  const ordinalColumn = new NumberColumnWriter(join(dir, 'ordinals'), 'u32');
  ordinalColumn.pushAll(ordinals);
  ordinalColumn.finish();
}

async function child(inputs) {
  const out = arg('out');
  /** @type {import('../dist/compile/search-index.js').SearchDocumentFiles} */
  const files = {
    type: 'song',
    ordinals: join(inputs, 'ordinals'),
    names: join(inputs, 'names'),
    artists: { offsets: join(inputs, 'credit-offsets'), targets: join(inputs, 'credit-targets'), artistNames: join(inputs, 'artist-names') },
  };
  const path = join(out, 'search.songs.blob');
  // CPU seconds beside wall seconds: this machine's other work stretches the wall clock.
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  let t = performance.now();
  let c = cpu();
  const phase = (name) => {
    const now = performance.now();
    const used = cpu();
    console.log(JSON.stringify({ phase: name, seconds: +((now - t) / 1000).toFixed(1), cpuSeconds: +(used - c).toFixed(1) }));
    t = now;
    c = used;
  };
  const started = performance.now();
  const startedCpu = cpu();
  const { buildSearchIndex } = await import('../dist/compile/search-build/index.js');
  const { SpillDir } = await import('../dist/compile/spill/spill-dir.js');
  const spill = join(out, 'spill');
  mkdirSync(spill);
  const shard = buildSearchIndex(path, 'bench', files, SpillDir.attach(spill, 'search-'), budgetMiB * 2 ** 20, phase);
  const seconds = +((performance.now() - started) / 1000).toFixed(1);
  const cpuSeconds = +(cpu() - startedCpu).toFixed(1);
  const vmHwm = Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
  const { openShard } = await import('../dist/index-format/shards/shard-reader.js');
  console.log(
    JSON.stringify({
      seconds,
      cpuSeconds,
      vmHwmMiB: MiB(vmHwm),
      sha256: shard.sha256,
      shardMiB: Math.round(shard.size / 2 ** 20),
      terms: openShard(path).meta.terms,
    }),
  );
}
