import type { Server } from 'node:net';
import { resolve } from 'node:path';
import { parseStoreUrl, S3ObjectStore, storeUrl } from '../object-store/index.js';
import { Replica } from '../replica/index.js';
import { listenAwaitingSnapshot } from '../serve/awaiting-snapshot.js';
import { eventLogger } from '../serve/event-log.js';
import { CliError } from './cli-error.js';
import { integer, positive } from './flag-numbers.js';

export interface StoreFlags {
  readonly port: string;
  readonly host: string;
  readonly workers: string;
  readonly cacheDir?: string;
  readonly poll: string;
  readonly cacheKeep: string;
}

export interface StartedReplica {
  /** The dist directory to serve (and watch). */
  readonly cacheDir: string;
  /** The port, held while the first build was fetched, to hand to the server. */
  readonly listening?: Server;
  /** Snapshot directories the replica verified before naming them (the server need not again). */
  readonly verified: (snapshotDir: string) => boolean;
  /** Called once the server is up: the replica stops polling when it drains. */
  serving(): void;
}

/**
 * Starts a replica of `s3://bucket/prefix/` in `--cache-dir` and resolves once a build is there:
 * at once when one was cached before, else after the first fetch, the port answering meanwhile
 * (/healthz 200, /readyz 503 saying what it waits for). The replica then keeps polling.
 */
export async function startReplica(url: string, flags: StoreFlags): Promise<StartedReplica> {
  if (!flags.cacheDir) throw new CliError(`serving ${url} needs --cache-dir <dir> (or OMM_CACHE_DIR): where builds are fetched to`);
  if (flags.workers !== '1')
    throw new CliError(
      '--workers with an s3:// source: run one replica, and beside it `omm serve <cache-dir> --workers N --watch` on another port (docs/operations.md)',
    );
  const location = parseStoreUrl(url);
  const log = eventLogger();
  const replica = new Replica(new S3ObjectStore(location), resolve(flags.cacheDir), {
    pollMs: Math.round(positive('--poll', flags.poll) * 1000),
    keep: integer('--cache-keep', flags.cacheKeep, 1, 1000),
    log,
  });
  const stopWaiting = () => {
    replica.close();
    process.exit(0);
  };
  void replica.run();
  let listening: Server | undefined;
  if (replica.status.buildId === null) {
    const waiting = await listenAwaitingSnapshot(integer('--port', flags.port, 0, 65535), flags.host, () => replica.status);
    process.stderr.write(
      `omm: waiting for the first build from ${storeUrl(location)} (fetched into ${replica.cacheDir}); listening on ${waiting.url}/ meanwhile: /readyz answers 503 until it is served\n`,
    );
    process.once('SIGTERM', stopWaiting);
    process.once('SIGINT', stopWaiting);
    await replica.ready();
    process.off('SIGTERM', stopWaiting);
    process.off('SIGINT', stopWaiting);
    listening = waiting.handOver();
  }
  return {
    cacheDir: replica.cacheDir,
    listening,
    verified: (dir) => replica.verified(dir),
    serving() {
      // The server drains on these; the replica stops polling with it.
      process.once('SIGTERM', () => replica.close());
      process.once('SIGINT', () => replica.close());
    },
  };
}
