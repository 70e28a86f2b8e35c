// Starts server processes (ours and the peers) pinned to a CPU with taskset when the machine
// has it, resolving once they answer. Shared by the load benchmarks (the load itself is wrk's:
// wrk.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const hasTaskset = spawnSync('taskset', ['--version']).status === 0;

/**
 * argv for running a node script pinned to `cpu` (or unpinned without taskset).
 * @returns {[string, string[]]}
 */
export function pinned(cpu, script, args) {
  return hasTaskset ? ['taskset', ['-c', String(cpu), process.execPath, script, ...args]] : [process.execPath, [script, ...args]];
}

/**
 * Starts a node script pinned to `cpu` and resolves once GET `readyPath` answers `readyStatus`
 * (or any status when null). Shared by our server and the peers.
 * @param {string} script
 * @param {string[]} scriptArgs
 * @param {{ port: number, cpu?: number, readyPath: string, readyStatus?: number | null }} options
 */
export async function startProcess(script, scriptArgs, { port, cpu = 0, readyPath, readyStatus = 200 }) {
  const [cmd, argv] = pinned(cpu, script, scriptArgs);
  const started = performance.now();
  const child = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'inherit'] });
  const origin = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    try {
      const res = await request(`${origin}${readyPath}`);
      await res.body.dump();
      if (readyStatus === null || res.statusCode === readyStatus) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return {
    origin,
    readyMs: performance.now() - started,
    // It answered, so it was spawned and has a pid.
    pid: /** @type {number} */ (child.pid),
    rssMiB: () => rssMiB(child.pid),
    memory: () => memoryMiB(child.pid),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/**
 * `omm serve` on a snapshot, ready once `readyPath` (default /readyz) answers 200.
 * @param {string} dist
 * @param {{ port: number, cpu?: number, args?: string[], readyPath?: string }} options
 */
export function startServer(dist, { port, cpu = 0, args = [], readyPath = '/readyz' }) {
  return startProcess(join(root, 'bin', 'omm'), ['serve', dist, '--port', String(port), ...args], { port, cpu, readyPath });
}

/** Resident set of a process tree's leaf node process (taskset execs node in place). */
export function rssMiB(pid) {
  const out = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim();
  return Math.round(Number(out) / 1024);
}

/**
 * Resident memory split the way /proc reports it: anonymous (heap, buffers: the process's own)
 * and file-backed (pages of mapped files, shared with the page cache and any other process
 * mapping them, dropped by the kernel under pressure).
 */
export function memoryMiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: Math.round(kib('VmRSS') / 1024), anon: Math.round(kib('RssAnon') / 1024), file: Math.round(kib('RssFile') / 1024) };
  } catch {
    return { rss: rssMiB(pid), anon: NaN, file: NaN };
  }
}
