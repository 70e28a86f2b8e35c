import cluster, { type Worker } from 'node:cluster';
import { serveClusterMetrics } from './cluster-metrics.js';
import type { LogEvent } from './event-log.js';

/**
 * The primary of `omm serve --workers N`: forks N copies of this command, which share the
 * listening port (node:cluster) and, through the page cache, the mapped shards. SIGHUP is passed
 * to every worker (each swaps snapshots on its own); SIGTERM and SIGINT are passed on and the
 * primary exits once every worker has finished its in-flight requests. A worker that dies
 * otherwise is replaced.
 */
export function runPrimary(workers: number, logEvent: LogEvent): Promise<void> {
  let stopping = false;
  // Workers overlap one another's disk reads already: running a request again once its pages
  // are in (cold-reads.ts) halved four workers' lookups on one core (docs/benchmarks.md), so it
  // is off in workers unless OMM_COLD_READS says otherwise.
  const fork = (): Worker => cluster.fork({ OMM_WORKER_OF: String(process.pid), OMM_COLD_READS: process.env.OMM_COLD_READS ?? 'off' });
  let listening = 0;
  cluster.on('listening', (worker, address) => {
    listening++;
    if (listening === workers)
      logEvent({
        level: 'info',
        event: 'workers-listening',
        workers,
        port: address.port,
        pids: Object.values(cluster.workers ?? {}).map((w) => w?.process.pid),
      });
    else if (listening > workers) logEvent({ level: 'info', event: 'worker-replaced', pid: worker.process.pid });
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    logEvent({ level: 'error', event: 'worker-exit', pid: worker.process.pid, code, signal });
    fork();
  });
  serveClusterMetrics();
  for (let i = 0; i < workers; i++) fork();
  process.on('SIGHUP', () => {
    logEvent({ level: 'info', event: 'reload-requested', workers: Object.keys(cluster.workers ?? {}).length });
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGHUP');
  });
  return new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      logEvent({ level: 'info', event: 'shutdown', signal });
      const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
      if (alive.length === 0) resolve();
      let left = alive.length;
      for (const w of alive) {
        w.once('exit', () => {
          if (--left === 0) resolve();
        });
        w.process.kill(signal);
      }
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
