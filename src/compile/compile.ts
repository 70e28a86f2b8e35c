import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Packr } from 'msgpackr';
import { FORMAT_MAJOR, FORMAT_MINOR, SHARD_KINDS } from '../index-format/constants.js';
import { MANIFEST_FILE, type Manifest, type ManifestShard } from '../index-format/manifest.js';
import { createStagingDir, publishSnapshot } from '../index-format/publish.js';
import { SEARCH_INDEX_INFO } from '../index-format/search-text.js';
import { ShardWriter, type WrittenShard } from '../index-format/shard-writer.js';
import { RAW_FILES } from '../raw/schema.js';
import { VIEWS_VERSION } from '../catalog/views.js';
import { CompileError } from './compile-error.js';
import { deriveCatalog } from './derive.js';
import { planExplore } from './explore.js';
import { Progress, type PhaseTiming } from './progress.js';
import { IssueLog } from './raw-file.js';
import { readCatalog } from './read-catalog.js';
import { writeRejects } from './rejects.js';
import { searchBuild, startSearchShards } from './search-index.js';
import { planStations } from './stations.js';
import { writeIndexes } from './write-indexes.js';
import { writeRecordTables } from './write-records.js';
import { writeAllViews } from './write-views.js';

export const COMPILER_VERSION = 'omm-catalog/0.1.0';

export interface CompileOptions {
  readonly rawDir: string;
  readonly outDir: string;
  /** Drop invalid rows (listed in rejects.csv) instead of failing. */
  readonly skipInvalid?: boolean;
  /** Snapshots kept in the dist directory, the new one included. */
  readonly keep?: number;
  readonly progress?: Progress;
  /** Issues listed in an error report. */
  readonly maxIssues?: number;
  /** Store the pre-rendered default view of every resource (default true). */
  readonly views?: boolean;
}

export interface CompileResult {
  readonly buildId: string;
  readonly snapshotDir: string;
  readonly manifest: Manifest;
  readonly rejectedRows: number;
  readonly rejectsPath: string | null;
  readonly seconds: number;
  /** Wall time per phase; `search index (worker)` overlaps `writing records`. */
  readonly phases: readonly PhaseTiming[];
}

/**
 * raw CSV directory -> published snapshot. Pass 1 validates and indexes; nothing is written
 * unless it passes (or --skip-invalid). Pass 2 writes records, indexes and the search index
 * into a staging directory, then the manifest, then publishes atomically.
 */
export async function compileCatalog(options: CompileOptions): Promise<CompileResult> {
  const started = Date.now();
  const rawDir = resolve(options.rawDir);
  const outDir = resolve(options.outDir);
  const progress = options.progress ?? new Progress(process.stderr, false);
  const log = new IssueLog(options.maxIssues ?? 100);

  progress.start('validating');
  const { index, files } = await readCatalog(rawDir, log, progress.tick);
  progress.done();
  if (log.total > 0 && !options.skipInvalid) throw new CompileError(log.shown, log.total);
  if (log.shown.some((i) => i.line === 0)) throw new CompileError(log.shown.filter((i) => i.line === 0), log.total);

  const sources = RAW_FILES.filter((f) => files.get(f.file)?.present).map((f) => {
    const read = files.get(f.file)!;
    return { file: `${f.file}.csv`, bytes: read.digest.bytes, rows: read.rows, sha256: read.digest.sha256 };
  });
  const buildId = createHash('sha256')
    .update(JSON.stringify({ format: [FORMAT_MAJOR, FORMAT_MINOR], compiler: COMPILER_VERSION, skipInvalid: Boolean(options.skipInvalid), views: options.views !== false, sources }))
    .digest('hex')
    .slice(0, 16);

  progress.start('deriving');
  const derived = deriveCatalog(index);
  const stations = planStations(index, derived);
  const explore = planExplore(index, derived, stations);
  progress.done();

  const staging = createStagingDir(outDir);
  try {
    const packr = new Packr({ structures: [], maxSharedStructures: 64 });
    const searchStarted = Date.now();
    let searchSeconds = 0;
    const searchJob = startSearchShards(searchBuild(staging, buildId, index, derived)).then((shards) => {
      searchSeconds = (Date.now() - searchStarted) / 1000;
      return shards;
    });
    searchJob.catch(() => undefined); // awaited below; avoid an unhandled rejection meanwhile
    progress.start('writing records');
    const recordShards = await writeRecordTables({ rawDir, outDir: staging, buildId, packr, log, index, derived, stations, onRow: progress.tick });
    progress.done();
    progress.start('writing indexes');
    const indexShards = writeIndexes(staging, buildId, index, derived, stations, explore);
    const searchShards = await searchJob;
    progress.done();

    const listed: ManifestShard[] = [
      ...recordShards.map((s) => entry(s, tableOf(s.path))),
      ...indexShards.map((s) => entry(s, s.name)),
      ...searchShards.map((s) => entry(s, s.name)),
    ];
    let rejectsPath: string | null = null;
    if (log.rejected.length > 0) {
      rejectsPath = join(staging, 'rejects.csv');
      writeRejects(rejectsPath, log.rejected);
    }
    let manifest: Manifest = {
      format: 'omm-snapshot',
      formatVersion: `${FORMAT_MAJOR}.${FORMAT_MINOR}`,
      buildId,
      compiler: COMPILER_VERSION,
      counts: {
        songs: index.songs.count,
        albums: index.albums.count,
        artists: index.artists.count,
        playlists: index.playlists.count,
        stations: stations.ids.length,
        customStations: index.stations.count,
        genres: index.genreNames.length,
        files: index.songFiles.count,
        lyrics: index.lyricsLanguages.length,
        exploreGroups: explore.length,
      },
      sources,
      shards: listed,
      structures: (packr as unknown as { structures: unknown[] }).structures.map((s) => [...(s as unknown[])]),
      search: SEARCH_INDEX_INFO,
      rejectedRows: log.rejected.length,
    };
    const writeManifest = () => new ShardWriter(join(staging, MANIFEST_FILE), SHARD_KINDS.manifest, buildId).finish(manifest as unknown as Record<string, unknown>);
    writeManifest();
    if (options.views !== false) {
      // Views are rendered from the snapshot written so far, then listed in a new manifest.
      progress.start('rendering views');
      const viewShards = await writeAllViews(staging, buildId, progress.tick);
      progress.done();
      manifest = {
        ...manifest,
        shards: [...manifest.shards, ...viewShards.map((s) => entry(s, tableOf(s.path)))],
        views: { version: VIEWS_VERSION, tables: [...new Set(viewShards.map((s) => tableOf(s.path)))] },
      };
      writeManifest();
    }
    const snapshotDir = publishSnapshot(outDir, staging, buildId, options.keep ?? 3);
    return {
      buildId,
      snapshotDir,
      manifest,
      rejectedRows: log.rejected.length,
      rejectsPath: rejectsPath ? join(snapshotDir, 'rejects.csv') : null,
      seconds: (Date.now() - started) / 1000,
      phases: [...progress.timings, { phase: 'search index (worker)', seconds: searchSeconds, rows: index.songs.count }],
    };
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

function entry(shard: WrittenShard, name: string): ManifestShard {
  const file = shard.path.slice(shard.path.lastIndexOf('/') + 1);
  return { file, kind: shard.kind, name, size: shard.size, sha256: shard.sha256 };
}

/** `songs.0003.rec` -> `songs`. */
function tableOf(path: string): string {
  const file = path.slice(path.lastIndexOf('/') + 1);
  return file.slice(0, file.indexOf('.'));
}
