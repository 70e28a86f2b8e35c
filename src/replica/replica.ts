import { setTimeout as delay } from 'node:timers/promises';
import { verifySnapshotAsync } from '../index-format/index.js';
import {
  descriptorKey,
  type ObjectStore,
  type Pointer,
  POINTER,
  parseDescriptor,
  parsePointer,
  sha256Hex,
  StoreError,
  storeUrl,
} from '../object-store/index.js';
import { BuildCache } from './build-cache.js';
import { fetchBuild } from './fetch-build.js';

export type ReplicaEvent = Record<string, unknown> & { level: 'info' | 'warn' | 'error'; event: string };

export interface ReplicaOptions {
  /** How often the pointer is asked for (ms). */
  readonly pollMs: number;
  /** Builds kept in the cache, the one in service included. */
  readonly keep: number;
  readonly concurrency?: number;
  readonly log: (event: ReplicaEvent) => void;
}

/** What the replica is doing, for /readyz before the first build and for logs. */
export interface ReplicaStatus {
  readonly state: 'starting' | 'downloading' | 'waiting' | 'serving' | 'unreachable';
  readonly buildId: string | null;
  readonly detail: string;
}

/** Refusals that stand until the pointer changes: the build as published is wrong. */
const REFUSED_CODES = new Set(['E_STORE_CORRUPT', 'E_STORE_FORMAT', 'E_STORE_MISSING']);

const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 30_000;

/** Waits `ms`, or less when the replica is closed. */
const sleep = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }).catch(() => undefined);

/**
 * Keeps a cache directory holding the build a store's pointer names: polls the pointer (a
 * conditional GET: an unchanged pointer costs a 304), fetches a new build's chunks, verifies the
 * whole snapshot and only then flips the cache's `current`, which the server follows. A build that
 * fails any check is refused with a log line and not tried again until the pointer moves; a store
 * that cannot be reached is retried with backoff; either way the build in service stays.
 */
export class Replica {
  private readonly cache: BuildCache;
  private readonly stop = new AbortController();
  private etag: string | null = null;
  private firstReady: Promise<void>;
  private markReady: () => void = () => undefined;
  status: ReplicaStatus;
  /** Snapshot directories this replica verified before installing them. */
  private readonly verifiedDirs = new Set<string>();

  constructor(
    private readonly store: ObjectStore,
    cacheDir: string,
    private readonly options: ReplicaOptions,
  ) {
    this.cache = new BuildCache(cacheDir, options.keep);
    const cached = this.cache.currentBuildId();
    this.status = cached
      ? { state: 'serving', buildId: cached, detail: 'the build cached before this start' }
      : { state: 'starting', buildId: null, detail: 'nothing cached yet' };
    this.firstReady = cached ? Promise.resolve() : new Promise((resolve) => (this.markReady = resolve));
  }

  get cacheDir(): string {
    return this.cache.dir;
  }

  /** Resolves once a complete build is in the cache (at once when one was there at start). */
  ready(): Promise<void> {
    return this.firstReady;
  }

  /** True for a snapshot directory this replica verified in full before it named it. */
  verified(snapshotDir: string): boolean {
    return this.verifiedDirs.has(snapshotDir);
  }

  /** Polls until closed. */
  async run(): Promise<void> {
    let failures = 0;
    while (!this.stop.signal.aborted) {
      let wait = this.options.pollMs;
      try {
        await this.syncOnce();
        failures = 0;
      } catch (err) {
        failures++;
        wait = Math.min(BACKOFF_FIRST_MS * 2 ** (failures - 1), Math.max(BACKOFF_MAX_MS, this.options.pollMs));
        const reason = (err as Error).message;
        // The store's failures, or this host's (a full disk, a permission): both retried.
        const fromStore = err instanceof StoreError;
        const detail = `${fromStore ? 'store unreachable' : 'fetch failed here'}: ${reason}`;
        this.status = { state: this.status.buildId ? this.status.state : 'unreachable', buildId: this.status.buildId, detail };
        this.options.log({
          level: 'warn',
          event: fromStore ? 'store-unreachable' : 'replica-failed',
          store: storeUrl(this.store.location),
          attempt: failures,
          retryInMs: wait,
          reason,
        });
      }
      await sleep(wait, this.stop.signal);
    }
  }

  close(): void {
    this.stop.abort();
  }

  /** One poll: the pointer, and the build it names when that is new here. */
  async syncOnce(): Promise<'unchanged' | 'installed' | 'refused' | 'absent'> {
    const got = await this.store.get(POINTER, this.etag ? { ifNoneMatch: this.etag } : {});
    if (got === 'not-modified') return 'unchanged';
    if (got === null) {
      if (!this.status.buildId) this.status = { state: 'waiting', buildId: null, detail: `no build published at ${storeUrl(this.store.location)} yet` };
      return 'absent';
    }
    try {
      const pointer = parsePointer(got.body);
      if (pointer.buildId !== this.cache.currentBuildId()) await this.install(pointer);
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (!REFUSED_CODES.has(code)) throw err;
      this.etag = got.etag;
      this.options.log({ level: 'error', event: 'build-refused', code, reason: (err as Error).message, serving: this.status.buildId });
      return 'refused';
    }
    this.etag = got.etag;
    return 'installed';
  }

  private async install(pointer: Pointer): Promise<void> {
    const started = performance.now();
    const key = descriptorKey(pointer.buildId);
    const got = await this.store.get(key);
    if (got === null) throw new StoreError('E_STORE_MISSING', `the pointer names build ${pointer.buildId}, whose descriptor is not in the store`, key);
    if (got === 'not-modified') throw new Error('unreachable: no If-None-Match was sent');
    if (sha256Hex(got.body) !== pointer.descriptorSha256)
      throw new StoreError('E_STORE_CORRUPT', "the build descriptor does not match the pointer's digest", key);
    const descriptor = parseDescriptor(got.body, key);
    if (descriptor.buildId !== pointer.buildId)
      throw new StoreError('E_STORE_FORMAT', `descriptor says build ${descriptor.buildId}, the pointer ${pointer.buildId}`, key);
    const workDir = this.cache.downloadDir(descriptor.buildId);
    const bytesTotal = descriptor.files.reduce((sum, f) => sum + f.size, 0);
    this.options.log({ level: 'info', event: 'build-download', buildId: descriptor.buildId, bytes: bytesTotal, files: descriptor.files.length });
    const fetched = await fetchBuild(this.store, descriptor, workDir, this.cache.localChunks(), {
      concurrency: this.options.concurrency,
      progress: ({ bytesDone }) => {
        if (!this.status.buildId || this.status.state === 'downloading')
          this.status = {
            state: 'downloading',
            buildId: this.status.buildId,
            detail: `build ${descriptor.buildId}: ${Math.floor((100 * bytesDone) / bytesTotal)}% of ${bytesTotal} bytes`,
          };
      },
    });
    const verifyStarted = performance.now();
    const report = await verifySnapshotAsync(workDir, { mode: 'pread' });
    if (report.problems.length > 0) {
      const p = report.problems[0];
      throw new StoreError(
        'E_STORE_CORRUPT',
        `build ${descriptor.buildId} fails verification (${report.problems.length} problem(s)); first: ${p.file}: ${p.code}: ${p.message}`,
        key,
      );
    }
    const verifyMs = Math.round(performance.now() - verifyStarted);
    this.verifiedDirs.add(this.cache.install(descriptor.buildId, workDir, got.body));
    this.status = { state: 'serving', buildId: descriptor.buildId, detail: `build ${descriptor.buildId} from ${storeUrl(this.store.location)}` };
    this.markReady();
    const { ms: downloadMs, ...bytes } = fetched;
    this.options.log({
      level: 'info',
      event: 'build-installed',
      buildId: descriptor.buildId,
      downloadMs,
      verifyMs,
      ms: Math.round(performance.now() - started),
      ...bytes,
    });
  }
}
