import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Manifest } from '../index-format/manifest.js';
import { createStagingDir, publishSnapshot } from '../index-format/publish.js';
import { deriveBuild } from './build-catalog.js';
import { startOrdersBeside } from './orders-beside.js';
import type { OrdersBeforeRelease } from './orders-build/index.js';
import { MemoryBudget } from './memory-budget.js';
import { Progress, type PhaseTiming } from './progress.js';
import { digestRawFiles, IssueLog } from './raw-file.js';
import { writeRejects } from './rejects.js';
import { startSearchShards, type NamedSearchShard } from './search-index.js';
import { SpillDir } from './spill/spill-dir.js';
import { validateCatalog } from './validate/validate-catalog.js';
import { writeIndexes } from './write/write-indexes.js';
import { newRecordPackr } from './write/record-packr.js';
import { writeRecordTables } from './write/write-records.js';
import { startSongRecords } from './write/song-records.js';

import { buildIdOf, checkedSources, entry, finishManifest, manifestOf, tableOf, withJournalPosition } from './snapshot-manifest.js';
import { startEdgeRecords } from './write/edge-records.js';
import { EDGE_RECORD_FILES } from './write/edge-record-rows.js';
import type { WrittenShard } from '../index-format/shards/shard-writer.js';
import type { ValidatedCatalog } from './validate/validate-catalog.js';

export { COMPILER_VERSION } from './snapshot-manifest.js';

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
  /** Memory budget of the whole compile, in bytes (default DEFAULT_MEMORY_BYTES). */
  readonly memoryBytes?: number;
  /**
   * Genre names numbered first, in this order, before those the raw files name (a delta compile
   * numbers genres as the catalog in service does, so ties between genres break alike).
   */
  readonly knownGenres?: readonly string[];
  /**
   * Build the search index (default true). A delta compile's compile of its candidates does not:
   * the delta's own index is built from what it holds (delta-search.ts).
   */
  readonly search?: boolean;
}

export interface CompileResult {
  readonly buildId: string;
  readonly snapshotDir: string;
  readonly manifest: Manifest;
  readonly rejectedRows: number;
  readonly rejectsPath: string | null;
  readonly seconds: number;
  /** Wall time per phase; `search index (worker)` runs beside the phases after deriving. */
  readonly phases: readonly PhaseTiming[];
}

/**
 * raw CSV directory -> published snapshot, within a memory budget. Pass 1 validates and keeps
 * what later phases need as column files in a spill directory beside the output (and writes the
 * files and lyrics records into the staging directory); nothing is published unless it passes
 * (or --skip-invalid). Then relations, orders and stations are sorted out of core, and records,
 * indexes and the search index (on a worker) are written into the staging directory, then a
 * manifest, then views, then the final manifest; then it is published atomically. The spill
 * directory is removed on success and on failure (and, after a SIGKILL, by the next compile).
 */
export async function compileCatalog(options: CompileOptions): Promise<CompileResult> {
  const started = Date.now();
  const [rawDir, outDir] = [resolve(options.rawDir), resolve(options.outDir)];
  const progress = options.progress ?? new Progress(process.stderr, false);
  const log = new IssueLog(options.maxIssues ?? 100);
  const budget = new MemoryBudget(options.memoryBytes);
  const spill = SpillDir.create(outDir);
  let staging: string | null = null;
  const background: Promise<unknown>[] = [];
  /** Work started beside this thread's: awaited where its result is needed, and at the end whatever happens. */
  const beside = <T>(job: Promise<T>): Promise<T> => {
    background.push(job);
    job.catch(() => undefined); // no unhandled rejection before it is awaited
    return job;
  };
  try {
    // The build id hashes the raw files' bytes, read before they are parsed, so the first pass
    // can already write record tables that carry it (files, lyrics).
    const digests = await digestRawFiles(rawDir);
    const buildId = buildIdOf(digests, Boolean(options.skipInvalid), options.views !== false);
    const stagingDir = createStagingDir(outDir);
    staging = stagingDir;

    progress.start('validating');
    // The songs' orders (all but by release date) sort on a worker from the moment the entities
    // are resolved, beside the checks and the grouping of relations (orders-beside.ts), within a
    // quarter of the budget's room while those sort within half: with half each, two threads'
    // heaps and arenas awaiting collection took a 10M compile to 659 MiB against 512.
    let songOrders = null as Promise<OrdersBeforeRelease> | null;
    const onResolved = (entities: Parameters<NonNullable<Parameters<typeof validateCatalog>[6]>>[0]) => {
      songOrders = beside(songOrdersBeside(entities.songs, spill, budget));
    };
    const validated = await validateCatalog(rawDir, spill, budget, log, { outDir: stagingDir, buildId }, progress.tick, onResolved, options.knownGenres);
    progress.done();
    const sources = checkedSources(validated, digests, log, Boolean(options.skipInvalid));

    progress.start('deriving');
    const packr = newRecordPackr();
    // From here this thread derives, then writes the records the first pass did not, the indexes
    // and interface 1's song views; workers build the search index as soon as its inputs are
    // derived (to the end, views included), write the songs table beside the other records, and
    // render the other views. The search build and this thread each sort within half of the
    // budget's room for sorters (build-catalog.ts, writeIndexes below); the others do not sort.
    const edgeRecords = rewriteEdgeRecords(validated, log, rawDir, stagingDir, buildId, progress);
    beside(edgeRecords);
    const searchStarted = Date.now();
    let searchSeconds = 0;
    let searchJob: Promise<NamedSearchShard[]> | null = null;
    if (!songOrders) throw new Error('the songs were never resolved'); // validateCatalog resolves before it returns
    const build = await deriveBuild(validated, spill, budget, {
      songOrders,
      rawDir,
      outDir: stagingDir,
      buildId,
      packr,
      log,
      onRow: progress.tick,
      onSearchInputs: (search) => {
        if (options.search === false) {
          searchJob = Promise.resolve([]);
          return;
        }
        searchJob = startSearchShards(search(stagingDir, budget.share(0.5).sorterBytes(2))).then((shards) => {
          searchSeconds = (Date.now() - searchStarted) / 1000;
          return shards;
        });
        beside(searchJob);
      },
    });
    progress.done();
    const ctx = build.context;
    progress.start('writing records');
    const songShards = startSongRecords(build.songRecords, (rows) => progress.add(rows));
    beside(songShards);
    const { beforeSongs, afterSongs } = await writeRecordTables(ctx);
    progress.done();
    progress.start('writing indexes');
    const indexShards = writeIndexes({ ctx, orderFiles: build.orderFiles, explore: build.explore, spill, budget: budget.share(0.5) });
    const recordShards = [...beforeSongs, ...(await songShards), ...afterSongs, ...(await edgeRecords)];
    progress.done();

    const written = [...recordShards.map((s) => entry(s, tableOf(s.path))), ...indexShards.map((s) => entry(s, s.name))];
    const rejected = log.rejected;
    if (rejected.length > 0) writeRejects(join(stagingDir, 'rejects.csv'), rejected);
    let manifest = withJournalPosition(manifestOf(buildId, build, validated.edges, sources, written, packr, rejected.length), rawDir);
    manifest = await finishManifest(manifest, { stagingDir, views: options.views !== false, ctx, written, progress }, searchJob!);
    const snapshotDir = publishSnapshot(outDir, stagingDir, buildId, options.keep ?? 3);
    return {
      buildId,
      snapshotDir,
      manifest,
      rejectedRows: rejected.length,
      rejectsPath: rejected.length > 0 ? join(snapshotDir, 'rejects.csv') : null,
      seconds: (Date.now() - started) / 1000,
      phases: [...progress.timings, { phase: 'search index (worker)', seconds: searchSeconds, rows: ctx.songs.count }],
    };
  } catch (err) {
    // A worker may still be writing into staging or reading the spill: let it finish first.
    await Promise.allSettled(background);
    if (staging) rmSync(staging, { recursive: true, force: true });
    throw err;
  } finally {
    spill.remove();
  }
}

/**
 * The files and lyrics tables as the first pass wrote them, unless the checks after it rejected
 * some of their rows (only under --skip-invalid): those tables are removed and written again from
 * a second read on a worker, skipping every rejected line. Shards in table order.
 */
async function rewriteEdgeRecords(
  validated: ValidatedCatalog,
  log: IssueLog,
  rawDir: string,
  staging: string,
  buildId: string,
  progress: Progress,
): Promise<WrittenShard[]> {
  const tables = EDGE_RECORD_FILES.filter((f) => validated.edgeRecords.get(f)!.rejected !== log.rejectedCount(`${f}.csv`));
  for (const f of tables) for (const shard of validated.edgeRecords.get(f)!.shards) rmSync(shard.path);
  const rewritten =
    tables.length === 0
      ? []
      : await startEdgeRecords(
          { rawDir, outDir: staging, buildId, tables, rejectedLines: Object.fromEntries(tables.map((f) => [`${f}.csv`, log.rejectedLinesOf(`${f}.csv`)])) },
          (rows) => progress.add(rows),
        );
  return EDGE_RECORD_FILES.flatMap((f) => (tables.includes(f) ? rewritten.filter((s) => tableOf(s.path) === f) : validated.edgeRecords.get(f)!.shards));
}

/** The songs' orders but by release date, sorting on a worker within a quarter of the budget's room. */
function songOrdersBeside(songs: Parameters<typeof startOrdersBeside>[0]['files'], spill: SpillDir, budget: MemoryBudget) {
  return startOrdersBeside({
    files: songs,
    spillPath: spill.path,
    spillPrefix: 'song-orders-',
    budgetBytes: budget.share(0.25).sorterBytes(1),
    label: 'songs',
  });
}
