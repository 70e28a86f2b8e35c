#!/usr/bin/env node
// Compile benchmark: generate a synthetic catalog (omm generate), compile it in a child process
// (wall time, rows/s, peak RSS, snapshot size), then time opening the snapshot and random key
// lookups with record decode. Usage: node bench/compile-bench.mjs [--songs 1000000] [--seed 1]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, numberArg } from './cli-args.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const songs = numberArg('songs', '1000000');
const seed = arg('seed', '1');
const work = join(root, 'bench', '.data');
const raw = join(work, `raw-${songs}-${seed}`);
const dist = join(work, `dist-${songs}-${seed}`);
mkdirSync(work, { recursive: true });
const omm = join(root, 'bin', 'omm');

if (!existsSync(join(raw, 'songs.csv'))) {
  console.error(`generating ${songs} songs (seed ${seed}) into ${raw}`);
  execFileSync(process.execPath, [omm, 'generate', '--songs', String(songs), '--seed', seed, '--out', raw], { stdio: 'inherit' });
}
rmSync(dist, { recursive: true, force: true });

const child = spawnSync(process.execPath, [join(root, 'bench', 'compile-child.mjs'), raw, dist], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
  maxBuffer: 1 << 24,
});
if (child.status !== 0) throw new Error(`compile failed: ${child.stdout}`);
const compile = JSON.parse(child.stdout.trim().split('\n').pop() ?? '');

const lookup = spawnSync(process.execPath, [join(root, 'bench', 'lookup-child.mjs'), dist], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
if (lookup.status !== 0) throw new Error(`lookup bench failed: ${lookup.stdout}`);
const reads = JSON.parse(lookup.stdout.trim().split('\n').pop() ?? '');

const rawBytes = readdirSync(raw).reduce((sum, f) => sum + statSync(join(raw, f)).size, 0);
const result = {
  machine: `${cpus().length} x ${cpus()[0].model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
  node: process.version,
  songs,
  seed,
  rawMiB: +(rawBytes / 2 ** 20).toFixed(1),
  ...compile,
  ...reads,
};
console.log(JSON.stringify(result, null, 2));
const verdict = (ok) => (ok ? 'met' : 'NOT met');
console.log(
  `compile ${compile.seconds.toFixed(1)} s (target < 60 s: ${verdict(compile.seconds < 60)}), peak RSS ${compile.peakRssMiB} MiB (target < 3072: ${verdict(compile.peakRssMiB < 3072)})`,
);
console.log(
  `open ${reads.openMs.toFixed(1)} ms (target < 50: ${verdict(reads.openMs < 50)}), lookup median ${reads.lookupMedianUs.toFixed(2)} µs (target < 5: ${verdict(reads.lookupMedianUs < 5)})`,
);
