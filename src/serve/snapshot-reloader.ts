import { statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { Snapshot } from '../index-format/index.js';
import type { ManifestShard } from '../index-format/manifest.js';
import { resolveSnapshotDir, verifySnapshotAsync } from '../index-format/index.js';
import { CURRENT_FILE } from '../index-format/manifest.js';
import { Catalog, type CatalogOptions } from '../catalog/catalog.js';
import type { CatalogHolder } from './catalog-holder.js';
import type { LogEvent } from './event-log.js';
import { warmUp } from './warm-up.js';

export interface ReloadResult {
  readonly outcome: 'swapped' | 'unchanged' | 'refused';
  /** The build in service afterwards. */
  readonly buildId: string;
  readonly previous?: string;
  readonly reason?: string;
  readonly ms: number;
  /** Of `ms`, the new snapshot's warm-up. */
  readonly warmUpMs?: number;
}

/**
 * The shards of a new snapshot that are files of the one in service (the same device and inode,
 * the same digest in both manifests: what omm takedown hard-links). They are not verified again:
 * the server answers from those very files already, every page checked against its CRC when
 * read, so a takedown's snapshot is verified in the time its own deletes set and manifest take,
 * whatever the catalog's size.
 */
function sharedWith(inService: Snapshot): (entry: ManifestShard, path: string) => boolean {
  const files = new Map<string, string>();
  for (const shard of inService.manifest.shards) {
    try {
      const st = statSync(join(inService.dir, shard.file));
      files.set(`${st.dev}:${st.ino}`, shard.sha256);
    } catch {
      // pruned under us: not shared
    }
  }
  return (entry, path) => {
    try {
      const st = statSync(path);
      return files.get(`${st.dev}:${st.ino}`) === entry.sha256;
    } catch {
      return false;
    }
  };
}

/**
 * Follows the `current` pointer of a dist directory. A reload resolves the pointer, verifies the
 * snapshot it names (every page CRC and shard digest, read with positioned reads in steps that
 * let requests through), opens it, warms it up when asked (warm-up.ts) and swaps it in; a
 * snapshot that fails any of that is refused and the one in service keeps serving. Reloads never
 * overlap: one asked for while another runs runs after it.
 */
export class SnapshotReloader {
  private chain: Promise<unknown> = Promise.resolve();
  private watcher: FSWatcher | null = null;
  readonly counts = { swapped: 0, unchanged: 0, refused: 0 };

  constructor(
    private readonly source: string,
    private readonly holder: CatalogHolder,
    private readonly log: LogEvent,
    private readonly catalogOptions: CatalogOptions = {},
    /** Warm a new snapshot up (warm-up.ts) before it takes requests. */
    private readonly warm = false,
    /** Snapshot directories this process verified already (ServeOptions.verified). */
    private readonly verified?: (snapshotDir: string) => boolean,
  ) {}

  reload(): Promise<ReloadResult> {
    const next = this.chain.then(() => this.reloadNow());
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async reloadNow(): Promise<ReloadResult> {
    const started = performance.now();
    const previous = this.holder.current.buildId;
    const done = (outcome: ReloadResult['outcome'], extra: Partial<ReloadResult> = {}): ReloadResult => {
      const result: ReloadResult = { outcome, buildId: this.holder.current.buildId, previous, ms: Math.round(performance.now() - started), ...extra };
      this.counts[outcome]++;
      this.log({ level: outcome === 'refused' ? 'error' : 'info', event: `snapshot-${outcome}`, ...result });
      return result;
    };
    let dir: string;
    try {
      dir = resolveSnapshotDir(this.source);
    } catch (err) {
      return done('refused', { reason: (err as Error).message });
    }
    if (dir === this.holder.current.snapshot.dir) return done('unchanged');
    if (!this.verified?.(dir)) {
      const report = await verifySnapshotAsync(dir, { mode: 'pread', skip: sharedWith(this.holder.current.snapshot) });
      if (report.problems.length > 0) {
        const p = report.problems[0];
        return done('refused', { reason: `${dir} fails verification (${report.problems.length} problem(s)); first: ${p.file}: ${p.code}: ${p.message}` });
      }
    }
    let catalog: Catalog;
    try {
      catalog = Catalog.open(dir, this.catalogOptions);
    } catch (err) {
      return done('refused', { reason: (err as Error).message });
    }
    let warmUpMs: number | undefined;
    if (this.warm) {
      // The snapshot in service answers meanwhile; the new one's first requests find its
      // indexes read and its bitmaps built.
      try {
        warmUpMs = (await warmUp(catalog)).ms;
      } catch (err) {
        catalog.close();
        return done('refused', { reason: `${dir} fails its warm-up: ${(err as Error).message}` });
      }
    }
    this.holder.swap(catalog);
    return done('swapped', warmUpMs === undefined ? {} : { warmUpMs });
  }

  /** Reloads whenever the dist directory's `current` pointer is replaced. */
  watch(debounceMs = 200): void {
    if (this.watcher) return;
    let timer: NodeJS.Timeout | null = null;
    this.watcher = watch(this.source, (_event, name) => {
      if (name !== CURRENT_FILE) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void this.reload();
      }, debounceMs);
    });
    this.watcher.unref();
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
  }
}
