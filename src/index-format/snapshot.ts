import { join } from 'node:path';
import { memoryLimitBytes } from './memory-limit.js';
import { Unpackr } from 'msgpackr';
import { SHARD_KINDS, type ShardKind } from './constants.js';
import { ArrayTable } from './tables/array-table.js';
import { FormatError } from './errors.js';
import { KeyTable } from './tables/key-table.js';
import { MANIFEST_FILE, type Manifest, type ManifestShard } from './manifest.js';
import { chooseMode, HeldFile, nativeMmapAvailable, type FileBytes, type OpenFileOptions } from './shards/mapped-file.js';
import { resolveSnapshotDir } from './publish.js';
import { RecordTable } from './tables/record-table.js';
import { openShard, type Shard } from './shards/shard-reader.js';

export interface OpenSnapshotOptions extends OpenFileOptions {
  /**
   * When the other shards are read with positioned reads: map the search indexes all the same
   * (when the native addon loads), and let releaseSearchPages drop their pages from the process
   * now and then. Default: true unless `mode` is given. Without it a search index is read into
   * the process section by section on first use, which at 10M songs is over a gigabyte.
   */
  readonly mapSearch?: boolean;
  /**
   * Lookups of many keys ask for all their pages before reading any (OpenFileOptions.readAhead):
   * `auto` (the default, or OMM_READ_AHEAD) when the snapshot is larger than the memory the
   * process may use (memory-limit.ts), where their pages are mostly on disk.
   */
  readonly readAheadLookups?: 'auto' | boolean;
}

/** OpenSnapshotOptions.readAheadLookups resolved for a snapshot of `bytes`. */
function readsAhead(option: OpenSnapshotOptions['readAheadLookups'], bytes: number): boolean {
  const setting = option ?? (process.env.OMM_READ_AHEAD === 'on' ? true : process.env.OMM_READ_AHEAD === 'off' ? false : 'auto');
  return setting === 'auto' ? bytes > memoryLimitBytes() : setting;
}

/** A shard the manifest lists: its file held open at once, read when a table first needs it. */
interface ListedShard {
  readonly entry: ManifestShard;
  held: HeldFile | null;
  shard: Shard | null;
  /** Why reading it failed: every later use fails the same way. */
  failure: unknown;
}

/**
 * An open snapshot. Opening reads the manifest and opens every shard's file (a descriptor, its
 * size checked against the manifest): no byte of a shard is read, so opening costs the same
 * whatever the snapshot holds and with a cold page cache. A table's shards are read (header and
 * directory, their build and kind checked) when the table is first asked for, and rows (their
 * pages verified) when they are.
 */
/**
 * Every table is read at random places: a mapped page that faults is read alone (MADV_RANDOM),
 * not with the 128 KiB around it. In a memory cgroup much smaller than the snapshot that
 * read-around evicted the very pages the next requests needed: at 30M songs in 1 GiB, songs by id
 * over 50,000 random songs went from 75 to 28,500 req/s, and a match from 85 ms to 8 ms
 * (docs/benchmarks.md, "Serving from a small memory cgroup"). Where pages are resident it changes
 * nothing. A section's first use, which verifies all its pages, reads them ahead itself
 * (Shard.verify).
 */
const MAPPED_ADVICE = 'random';

export class Snapshot {
  readonly manifest: Manifest;
  private readonly manifestFile: Shard;
  private readonly listed: ListedShard[] = [];
  /** Indexes into `listed` by kind, then table name, in manifest order. */
  private readonly byTable = new Map<string, number[]>();
  private readonly recordTables = new Map<string, RecordTable>();
  private readonly keyTables = new Map<string, KeyTable>();
  private readonly arrayTables = new Map<string, ArrayTable>();
  private readonly blobs = new Map<string, Shard>();
  /** Search indexes mapped while the rest is read with positioned reads (OpenSnapshotOptions.mapSearch). */
  private readonly mappedSearch: FileBytes[] = [];
  private readonly mapSearch: boolean;
  /** Whether lookups of many keys read their pages ahead (OpenSnapshotOptions.readAheadLookups). */
  readonly readAhead: boolean = false;
  private releases = 0;
  /** The base's record decoder (the only one of a snapshot with no segments). */
  readonly unpackr: Unpackr;
  /** Per segment, its record decoder (docs/segments.md); [unpackr] without segments. */
  private readonly unpackrs: Unpackr[];

  private constructor(
    readonly dir: string,
    private readonly options: OpenSnapshotOptions,
  ) {
    const manifestShard = openShard(join(dir, MANIFEST_FILE), SHARD_KINDS.manifest, options);
    this.manifestFile = manifestShard;
    try {
      const manifest = manifestShard.meta as unknown as Manifest;
      if (manifest.format !== 'omm-snapshot' || manifest.buildId !== manifestShard.buildId || !Array.isArray(manifest.shards)) {
        throw new FormatError('E_FORMAT_HEADER', 'manifest is not an omm snapshot manifest', manifestShard.path);
      }
      this.manifest = manifest;
      this.readAhead = readsAhead(
        options.readAheadLookups,
        manifest.shards.reduce((sum, shard) => sum + shard.size, 0),
      );
      this.unpackrs = (manifest.segments ?? [manifest]).map(
        ({ structures }) => new Unpackr({ structures: structures as never, maxSharedStructures: structures.length }),
      );
      this.unpackr = this.unpackrs[0];
      // With positioned reads, search indexes are mapped all the same (see OpenSnapshotOptions).
      this.mapSearch = (options.mapSearch ?? (options.mode ?? 'auto') === 'auto') && chooseMode(options) === 'pread' && nativeMmapAvailable();
      for (const entry of manifest.shards) {
        if (!(this.unpackrs.length > (entry.segment ?? 0))) {
          throw new FormatError('E_FORMAT_HEADER', `manifest lists ${entry.file} in segment ${entry.segment}, which it does not name`, manifestShard.path);
        }
        const key = tableKey(entry.kind, entry.name, entry.segment);
        const list = this.byTable.get(key) ?? [];
        list.push(this.listed.length);
        this.byTable.set(key, list);
        this.listed.push({ entry, held: this.holdListedFile(entry), shard: null, failure: undefined });
      }
    } catch (err) {
      this.close();
      throw err;
    }
  }

  /** Opens the snapshot at `path`: a snapshot directory, or a dist directory's `current`. */
  static open(path: string, options: OpenSnapshotOptions = {}): Snapshot {
    return new Snapshot(resolveSnapshotDir(path), options);
  }

  get buildId(): string {
    return this.manifest.buildId;
  }

  private holdListedFile(entry: ManifestShard): HeldFile {
    if (!/^[A-Za-z0-9._-]+$/.test(entry.file)) {
      throw new FormatError('E_FORMAT_HEADER', `manifest names an unsafe file ${JSON.stringify(entry.file)}`, this.dir);
    }
    const held = new HeldFile(join(this.dir, entry.file));
    if (held.size !== entry.size) {
      held.close();
      throw new FormatError(held.size < entry.size ? 'E_FORMAT_TRUNCATED' : 'E_SNAPSHOT_MISMATCH', `size ${held.size}, manifest says ${entry.size}`, held.path);
    }
    return held;
  }

  /** The manifest's `i`-th shard, read now if it was not yet: its header, kind and build checked. */
  shardAt(i: number): Shard {
    const listed = this.listed[i];
    if (listed.shard) return listed.shard;
    if (listed.failure !== undefined) throw listed.failure;
    const { entry } = listed;
    const searchIndex = this.mapSearch && entry.kind === SHARD_KINDS.blob && entry.name.startsWith('search.');
    const held = listed.held!;
    listed.held = null;
    try {
      const shard = openShard(held, entry.kind, {
        advice: MAPPED_ADVICE,
        ...this.options,
        readAhead: this.readAhead,
        ...(searchIndex ? { mode: 'mmap' as const } : {}),
      });
      if (!this.ownsBuild(entry, shard.buildId)) {
        shard.close();
        throw new FormatError('E_SNAPSHOT_MISMATCH', `shard of build ${shard.buildId} in snapshot ${this.manifest.buildId}`, shard.path);
      }
      if (searchIndex) this.mappedSearch.push(shard.file);
      listed.shard = shard;
      return shard;
    } catch (err) {
      listed.failure = err;
      throw err;
    }
  }

  /** Whether a shard of `buildId` may be listed as `entry`: its segment's build, or the snapshot's own or base build. */
  private ownsBuild(entry: ManifestShard, buildId: string): boolean {
    const segments = this.manifest.segments;
    if (segments) return buildId === segments[entry.segment ?? 0].buildId;
    return buildId === this.manifest.buildId || buildId === this.manifest.baseBuildId;
  }

  /** How many segments the snapshot has: 1 unless it is segmented (docs/segments.md). */
  get segmentCount(): number {
    return this.unpackrs.length;
  }

  /** The shards of one table of a segment, read now if they were not yet. */
  private tableShards(kind: ShardKind, name: string, what: string, segment: number): Shard[] {
    const indexes = this.byTable.get(tableKey(kind, name, segment));
    if (!indexes) throw new FormatError('E_SNAPSHOT_MISMATCH', `snapshot has no ${what} ${name}${segment ? ` in segment ${segment}` : ''}`, this.dir);
    return indexes.map((i) => this.shardAt(i));
  }

  /** Whether search indexes are mapped under positioned reads (releaseSearchPages has work). */
  get mapsSearch(): boolean {
    return this.mapSearch;
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

  /** A record table (of the base, or of segment `segment`). */
  records(name: string, segment = 0): RecordTable {
    const key = tableKey(SHARD_KINDS.records, name, segment);
    let table = this.recordTables.get(key);
    if (!table) {
      const shards = this.tableShards(SHARD_KINDS.records, name, 'record table', segment);
      this.recordTables.set(key, (table = new RecordTable(name, shards, this.unpackrs[segment])));
    }
    return table;
  }

  keys(name: string, segment = 0): KeyTable {
    const key = tableKey(SHARD_KINDS.keys, name, segment);
    let table = this.keyTables.get(key);
    if (!table) this.keyTables.set(key, (table = new KeyTable(this.tableShards(SHARD_KINDS.keys, name, 'key table', segment)[0])));
    return table;
  }

  arrays(name: string, segment = 0): ArrayTable {
    const key = tableKey(SHARD_KINDS.arrays, name, segment);
    let table = this.arrayTables.get(key);
    if (!table) this.arrayTables.set(key, (table = new ArrayTable(this.tableShards(SHARD_KINDS.arrays, name, 'array table', segment)[0])));
    return table;
  }

  blob(name: string, segment = 0): Shard {
    const key = tableKey(SHARD_KINDS.blob, name, segment);
    let shard = this.blobs.get(key);
    if (!shard) this.blobs.set(key, (shard = this.tableShards(SHARD_KINDS.blob, name, 'blob', segment)[0]));
    return shard;
  }

  hasBlob(name: string, segment = 0): boolean {
    return this.byTable.has(tableKey(SHARD_KINDS.blob, name, segment));
  }

  hasArrays(name: string, segment = 0): boolean {
    return this.byTable.has(tableKey(SHARD_KINDS.arrays, name, segment));
  }

  hasRecords(name: string, segment = 0): boolean {
    return this.byTable.has(tableKey(SHARD_KINDS.records, name, segment));
  }

  hasKeys(name: string, segment = 0): boolean {
    return this.byTable.has(tableKey(SHARD_KINDS.keys, name, segment));
  }

  /** Every shard with its manifest entry, each read now if it was not yet (for inspect and verify). */
  listShards(): { entry: ManifestShard; shard: Shard }[] {
    return this.listed.map((listed, i) => ({ entry: listed.entry, shard: this.shardAt(i) }));
  }

  /** The shards read so far, the manifest's first (what the server has open). */
  openedShards(): Shard[] {
    return [this.manifestFile, ...this.listed.flatMap((l) => (l.shard ? [l.shard] : []))];
  }

  get manifestShard(): Shard {
    return this.manifestFile;
  }

  close(): void {
    this.manifestFile.close();
    for (const listed of this.listed) {
      listed.held?.close();
      listed.shard?.close();
    }
  }
}

function tableKey(kind: ShardKind, name: string, segment = 0): string {
  return `${segment}/${kind}/${name}`;
}
