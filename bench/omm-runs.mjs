// What the import and delivery benches share: `omm` run as a child process and measured (wall,
// CPU of its process tree, the tree's peak memory from /proc), the generated input they reuse
// in bench/.data, and the size of a directory.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCatalog } from '../dist/generate/generate.js';
import { reapedChildrenCpuSeconds, sampleTreeMemory } from './load/proc-tree.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const omm = join(root, 'bin', 'omm');
export const work = join(root, 'bench', '.data');
const MiB = (kib) => Math.round(kib / 1024);

/** Bytes of every file under `dir`. */
export const dirBytes = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((sum, e) => sum + (e.isDirectory() ? dirBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size), 0);

/**
 * Runs `omm <args>` to the end: wall and CPU seconds of its tree, its peak memory, and its stdout (also shown).
 * @param {string[]} args
 */
export async function timedOmm(args) {
  const cpuBefore = reapedChildrenCpuSeconds();
  const started = performance.now();
  const child = spawn(process.execPath, [omm, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const sampler = sampleTreeMemory(/** @type {number} */ (child.pid));
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    process.stderr.write(chunk);
  });
  const code = await new Promise((resolve) => child.once('exit', resolve));
  const peak = sampler.stop();
  if (code !== 0) throw new Error(`omm ${args.join(' ')} exited with ${code}`);
  return {
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: reapedChildrenCpuSeconds() - cpuBefore,
    peakAnonMiB: MiB(peak.anon),
    peakRssMiB: MiB(peak.rss),
    stdout,
  };
}

/**
 * The generated input of a format in bench/.data, generated here unless a finished one is there
 * (`.generated` is written last and holds the generator's summary; the importers skip hidden files).
 * @param {'ddex' | 'musicbrainz'} format
 * @param {number} songs
 * @param {number} seed
 * @param {(line: string) => void} log
 */
export async function generatedInput(format, songs, seed, log) {
  const dir = join(work, `import-${format}-${songs}-${seed}`);
  const marker = join(dir, '.generated');
  if (existsSync(marker)) {
    log(`${format}: reusing ${dir}`);
    return { dir, summary: JSON.parse(readFileSync(marker, 'utf8')) };
  }
  rmSync(dir, { recursive: true, force: true });
  log(`${format}: generating ${songs.toLocaleString('en-US')} songs into ${dir}`);
  const summary = await generateCatalog({ songs, seed, out: dir, format });
  log(`${format}: generated in ${summary.seconds.toFixed(1)} s: ${JSON.stringify(summary.rows)}`);
  writeFileSync(marker, JSON.stringify(summary));
  return { dir, summary };
}
