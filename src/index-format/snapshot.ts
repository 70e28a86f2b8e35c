import { join } from 'node:path';
import { Unpackr } from 'msgpackr';
import { SHARD_KINDS } from './constants.js';
import { ArrayTable } from './array-table.js';
import { FormatError } from './errors.js';
import { KeyTable } from './key-table.js';
import { MANIFEST_FILE, type Manifest, type ManifestShard } from './manifest.js';
import { chooseMode, nativeMmapAvailable, type FileBytes, type OpenFileOptions } from './mapped-file.js';
import { resolveSnapshotDir } from './publish.js';
import { RecordTable } from './record-table.js';
import { openShard, type Shard } from './shard-reader.js';

export interface OpenSnapshotOptions extends OpenFileOptions {
  /**
   * When the other shards are read with positioned reads: map the search indexes all the same
   * (when the native addon loads), and let releaseSearchPages drop their pages from the process
   * now and then. Default: true unless `mode` is given. Without it a search index is read into
   * the process section by section on first use, which at 10M songs is over a gigabyte.
   */
  readonly mapSearch?: boolean;
}

/**
 * An open snapshot. Opening reads the manifest and each shard's header and directory: a fixed
 * amount of work per shard, independent of how many rows the snapshot holds. Rows are read
 * (and their pages verified) only when asked for.
 */
export class Snapshot {
  readonly manifest: Manifest;
  private readonly shards: Shard[] = [];
  private readonly recordTables = new Map<string, RecordTable>();
  private readonly keyTables = new Map<string, KeyTable>();
  private readonly arrayTables = new Map<string, ArrayTable>();
  private readonly blobs = new Map<string, Shard>();
  /** Search indexes mapped while the rest is read with positioned reads (OpenSnapshotOptions.mapSearch). */
  private readonly mappedSearch: FileBytes[] = [];
  private releases = 0;
  readonly unpackr: Unpackr;

  private constructor(readonly dir: string, options: OpenSnapshotOptions) {
    const manifestShard = openShard(join(dir, MANIFEST_FILE), SHARD_KINDS.manifest, options);
    this.shards.push(manifestShard);
    const manifest = manifestShard.meta as unknown as Manifest;
    if (manifest.format !== 'omm-snapshot' || manifest.buildId !== manifestShard.buildId || !Array.isArray(manifest.shards)) {
      throw new FormatError('E_FORMAT_HEADER', 'manifest is not an omm snapshot manifest', manifestShard.path);
    }
    this.manifest = manifest;
    this.unpackr = new Unpackr({ structures: manifest.structures as never, maxSharedStructures: manifest.structures.length });

    const recordShards = new Map<string, Shard[]>();
    // An explicit `mode: 'pread'` (verification reads every page) keeps everything unmapped.
    const mapSearch = (options.mapSearch ?? (options.mode ?? 'auto') === 'auto') && chooseMode(options) === 'pread' && nativeMmapAvailable();
    for (const entry of manifest.shards) {
      const searchIndex = entry.kind === SHARD_KINDS.blob && entry.name.startsWith('search.');
      const shard = this.openListedShard(entry, mapSearch && searchIndex ? { ...options, mode: 'mmap' } : options);
      if (mapSearch && searchIndex) this.mappedSearch.push(shard.file);
      switch (entry.kind) {
        case SHARD_KINDS.records: {
          const list = recordShards.get(entry.name) ?? [];
          list.push(shard);
          recordShards.set(entry.name, list);
          break;
        }
        case SHARD_KINDS.keys:
          this.keyTables.set(entry.name, new KeyTable(shard));
          break;
        case SHARD_KINDS.arrays:
          this.arrayTables.set(entry.name, new ArrayTable(shard));
          break;
        default:
          this.blobs.set(entry.name, shard);
      }
    }
    for (const [name, shards] of recordShards) {
      this.recordTables.set(name, new RecordTable(name, shards, this.unpackr));
    }
  }

  /** Opens the snapshot at `path`: a snapshot directory, or a dist directory's `current`. */
  static open(path: string, options: OpenSnapshotOptions = {}): Snapshot {
    return new Snapshot(resolveSnapshotDir(path), options);
  }

  get buildId(): string {
    return this.manifest.buildId;
  }

  private openListedShard(entry: ManifestShard, options: OpenSnapshotOptions): Shard {
    if (!/^[A-Za-z0-9._-]+$/.test(entry.file)) {
      throw new FormatError('E_FORMAT_HEADER', `manifest names an unsafe file ${JSON.stringify(entry.file)}`, this.dir);
    }
    const shard = openShard(join(this.dir, entry.file), entry.kind, options);
    this.shards.push(shard);
    if (shard.file.size !== entry.size) {
      throw new FormatError('E_SNAPSHOT_MISMATCH', `size ${shard.file.size}, manifest says ${entry.size}`, shard.path);
    }
    if (shard.buildId !== this.manifest.buildId) {
      throw new FormatError('E_SNAPSHOT_MISMATCH', `shard of build ${shard.buildId} in snapshot ${this.manifest.buildId}`, shard.path);
    }
    return shard;
  }

  /** Whether search indexes are mapped under positioned reads (releaseSearchPages has work). */
  get mapsSearch(): boolean {
    return this.mappedSearch.length > 0;
  }

  /**
   * Drops the pages of the search indexes mapped under positioned reads from this process's page
   * tables (see OpenSnapshotOptions.mapSearch): they stop counting in its RSS, stay in the page
   * cache, and are mapped again when read. Does nothing otherwise.
   */
  releaseSearchPages(): void {
    for (const file of this.mappedSearch) file.releasePages();
    if (this.mappedSearch.length > 0) this.releases++;
  }

  /** How many times releaseSearchPages dropped pages. */
  get searchPageReleases(): number {
    return this.releases;
  }

  records(name: string): RecordTable {
    return mustGet(this.recordTables, name, 'record table', this.dir);
  }

  keys(name: string): KeyTable {
    return mustGet(this.keyTables, name, 'key table', this.dir);
  }

  arrays(name: string): ArrayTable {
    return mustGet(this.arrayTables, name, 'array table', this.dir);
  }

  blob(name: string): Shard {
    return mustGet(this.blobs, name, 'blob', this.dir);
  }

  hasRecords(name: string): boolean {
    return this.recordTables.has(name);
  }

  /** Every open shard with its manifest entry (for inspect and verify). */
  listShards(): { entry: ManifestShard; shard: Shard }[] {
    return this.manifest.shards.map((entry, i) => ({ entry, shard: this.shards[i + 1] }));
  }

  get manifestShard(): Shard {
    return this.shards[0];
  }

  close(): void {
    for (const shard of this.shards) shard.close();
  }
}

function mustGet<T>(map: Map<string, T>, name: string, what: string, dir: string): T {
  const value = map.get(name);
  if (!value) throw new FormatError('E_SNAPSHOT_MISMATCH', `snapshot has no ${what} ${name}`, dir);
  return value;
}
