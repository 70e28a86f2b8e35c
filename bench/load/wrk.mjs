// wrk as the load generator: installed by the benchmark when missing (Debian's package, never by
// the test suite), pinned to its own core, driving rotating paths (rotate-paths.lua).
import { spawnSync } from 'node:child_process';
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

/**
 * One wrk run against `origin` over the paths in `pathsFile`: `-t threads -c connections -d
 * seconds`, pinned to `cpu`. Returns requests per second and latency percentiles in ms.
 */
export function runWrk(origin, pathsFile, { cpu = 1, threads = 2, connections = 64, seconds = 10 } = {}) {
  const args = [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, origin, '--', pathsFile];
  const [cmd, argv] = hasTaskset ? ['taskset', ['-c', String(cpu), 'wrk', ...args]] : ['wrk', args];
  const out = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (out.status !== 0) throw new Error(`wrk failed (${out.status}): ${out.stderr}`);
  const line = out.stdout.trim().split('\n').filter((l) => l.startsWith('{')).pop();
  if (!line) throw new Error(`wrk printed no result: ${out.stdout}`);
  const r = JSON.parse(line);
  const ms = (us) => Math.round(us / 10) / 100;
  return {
    reqPerSec: Math.round(r.requests / (r.durationUs / 1e6)),
    requests: r.requests,
    failed: r.socketErrors + r.non2xx,
    p50Ms: ms(r.p50Us),
    p90Ms: ms(r.p90Us),
    p99Ms: ms(r.p99Us),
    maxMs: ms(r.maxUs),
  };
}
