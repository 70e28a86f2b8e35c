// wrk as the load generator: installed by the benchmark when missing (Debian's package, never by
// the test suite), pinned to its own core, driving rotating paths (rotate-paths.lua). Every load
// benchmark uses it: a generator written in JS saturates before the server on 2 cores.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { hasTaskset } from './server-process.mjs';

const script = fileURLToPath(new URL('./rotate-paths.lua', import.meta.url));

/** The wrk binary, installed with apt-get when it is not there yet; its version line. */
export function ensureWrk() {
  const found = () => spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  let probe = found();
  if (probe.error) {
    console.error('wrk is not installed: apt-get install -y wrk');
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    const install = spawnSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'inherit' });
    probe = found();
    if (install.status !== 0 || probe.error) throw new Error('wrk could not be installed (apt-get install -y wrk failed); the benchmark needs it');
  }
  return `${probe.stdout}${probe.stderr}`.split('\n')[0].trim();
}

/** Writes paths one per line, the form rotate-paths.lua reads; returns the file. */
export function writePaths(file, paths) {
  if (paths.length === 0 || paths.some((p) => p.includes('\n'))) throw new Error(`bad paths for ${file}`);
  writeFileSync(file, `${paths.join('\n')}\n`);
  return file;
}

// wrk gives up on an answer after --timeout and counts it as an error, not a request: 30 s, so a
// slow server shows as slow (its latencies counted) rather than as no answers at all.
/**
 * `script`: another wrk script than rotate-paths.lua (the `pathsFile` argument is then its first
 * script argument).
 * @typedef {{ cpu?: number, threads?: number, connections?: number, seconds?: number, timeout?: number, script?: string }} WrkOptions
 */

/**
 * @param {string} origin
 * @param {string} pathsFile
 * @param {WrkOptions} [options]
 * @returns {[string, string[]]}
 */
function wrkCommand(origin, pathsFile, { cpu = 1, threads = 2, connections = 64, seconds = 10, timeout = 30, script: lua = script } = {}) {
  const args = [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, `--timeout`, `${timeout}s`, '--latency', '-s', lua, origin, '--', pathsFile];
  return hasTaskset ? ['taskset', ['-c', String(cpu), 'wrk', ...args]] : ['wrk', args];
}

function wrkResult(stdout, stderr, status) {
  if (status !== 0) throw new Error(`wrk failed (${status}): ${stderr}`);
  const line = stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop();
  if (!line) throw new Error(`wrk printed no result: ${stdout}`);
  const r = JSON.parse(line);
  const ms = (us) => Math.round(us / 10) / 100;
  return {
    reqPerSec: Math.round(r.requests / (r.durationUs / 1e6)),
    requests: r.requests,
    socketErrors: r.socketErrors,
    non2xx: r.non2xx,
    failed: r.socketErrors + r.non2xx,
    p50Ms: ms(r.p50Us),
    p90Ms: ms(r.p90Us),
    p99Ms: ms(r.p99Us),
    maxMs: ms(r.maxUs),
  };
}

/**
 * One wrk run against `origin` over the paths in `pathsFile`: `-t threads -c connections -d
 * seconds`, pinned to `cpu`. Returns requests per second and latency percentiles in ms.
 * @param {string} origin
 * @param {string} pathsFile
 * @param {WrkOptions} [options]
 */
export function runWrk(origin, pathsFile, options = {}) {
  const [cmd, argv] = wrkCommand(origin, pathsFile, options);
  const out = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 24 });
  return wrkResult(out.stdout, out.stderr, out.status);
}

/**
 * The same as runWrk without blocking: resolves to its result when the run ends.
 * @param {string} origin
 * @param {string} pathsFile
 * @param {WrkOptions} [options]
 */
export function startWrk(origin, pathsFile, options = {}) {
  const [cmd, argv] = wrkCommand(origin, pathsFile, options);
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => {
      try {
        resolve(wrkResult(stdout, stderr, code));
      } catch (err) {
        reject(err);
      }
    }),
  );
}

/** The median of a list of numbers (the upper one of an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * A kind measured the way every load benchmark here does: a warm-up run (discarded), then `runs`
 * timed runs. `median` holds each figure's median over the timed runs.
 * @param {string} origin
 * @param {string} pathsFile
 * @param {WrkOptions & { warmup?: number, runs?: number }} [options]
 */
export function measureWrk(origin, pathsFile, { warmup = 3, runs = 3, seconds = 10, ...options } = {}) {
  if (warmup > 0) runWrk(origin, pathsFile, { ...options, seconds: warmup });
  const all = Array.from({ length: runs }, () => runWrk(origin, pathsFile, { ...options, seconds }));
  const keys = ['reqPerSec', 'p50Ms', 'p90Ms', 'p99Ms', 'maxMs'];
  return {
    runs: all,
    median: Object.fromEntries(keys.map((k) => [k, median(all.map((r) => r[k]))])),
    failed: all.reduce((sum, r) => sum + r.failed, 0),
    non2xx: all.reduce((sum, r) => sum + r.non2xx, 0),
  };
}
