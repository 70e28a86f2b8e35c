import { journalPosition } from '../raw/change-journal.js';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { VIEWS_VERSION } from '../catalog/views.js';
import { FORMAT_MAJOR, FORMAT_MINOR, SHARD_KINDS } from '../index-format/constants.js';
import { MANIFEST_FILE, type Manifest, type ManifestShard } from '../index-format/manifest.js';
import { SEARCH_INDEX_INFO } from '../index-format/search/search-text.js';
import { ShardWriter, type WrittenShard } from '../index-format/shards/shard-writer.js';
import { RAW_FILES } from '../raw/schema.js';
import type { deriveBuild } from './build-catalog.js';
import { CompileError } from './compile-error.js';
import type { Progress } from './progress.js';
import type { digestRawFiles, IssueLog } from './raw-file.js';
import type { NamedSearchShard } from './search-index.js';
import type { ValidatedCatalog } from './validate/validate-catalog.js';
import type { BuildContext } from './write/build-context.js';
import type { newRecordPackr } from './write/record-packr.js';
import { writeAllViews } from './write-views.js';

/**
 * What a compile writes about its snapshot: the build id, the sources read, and the manifest
 * listing every shard (compile.ts runs the phases; this names what they produced).
 */

export const COMPILER_VERSION = 'omm-catalog/0.1.0';

export function entry(shard: WrittenShard, name: string): ManifestShard {
  const file = shard.path.slice(shard.path.lastIndexOf('/') + 1);
  return { file, kind: shard.kind, name, size: shard.size, sha256: shard.sha256 };
}

/** `songs.0003.rec` -> `songs`. */
export function tableOf(path: string): string {
  const file = path.slice(path.lastIndexOf('/') + 1);
  return file.slice(0, file.indexOf('.'));
}

/** The build id: a digest of the raw files' bytes and of what the compile is asked to do. */
export function buildIdOf(digests: Awaited<ReturnType<typeof digestRawFiles>>, skipInvalid: boolean, views: boolean): string {
  return createHash('sha256')
    .update(
      JSON.stringify({
        format: [FORMAT_MAJOR, FORMAT_MINOR],
        compiler: COMPILER_VERSION,
        skipInvalid,
        views,
        sources: [...digests].map(([file, d]) => ({ file, ...d })),
      }),
    )
    .digest('hex')
    .slice(0, 16);
}

/**
 * The raw files as read, after the first pass: a file that changed between its digest and its
 * reading, or any rejected row without --skip-invalid, stops the compile. Returns the sources
 * the manifest lists.
 */
export function checkedSources(validated: ValidatedCatalog, digests: Awaited<ReturnType<typeof digestRawFiles>>, log: IssueLog, skipInvalid: boolean) {
  for (const [file, read] of validated.read) {
    const hashed = digests.get(file);
    if (read.present && read.bytes > 0 && read.bytes !== hashed?.bytes) {
      log.fileIssue('E_RAW_FILE', `${file}.csv`, `changed while it was being compiled (${hashed?.bytes ?? 0} bytes hashed, then ${read.bytes} bytes read)`);
    }
  }
  if (log.total > 0 && !skipInvalid) throw new CompileError(log.shown, log.total);
  const fileIssues = log.shown.filter((i) => i.line === 0);
  if (fileIssues.length > 0) throw new CompileError(fileIssues, log.total);

  return RAW_FILES.filter((f) => validated.read.get(f.file)?.present).map((f) => {
    const digest = digests.get(f.file)!;
    return { file: `${f.file}.csv`, bytes: digest.bytes, rows: validated.read.get(f.file)!.rows, sha256: digest.sha256 };
  });
}

/** The manifest of the records, indexes and what was counted (the shards it lists are added as they are written). */
export function manifestOf(
  buildId: string,
  build: Awaited<ReturnType<typeof deriveBuild>>,
  edges: ValidatedCatalog['edges'],
  sources: ReturnType<typeof checkedSources>,
  written: Manifest['shards'],
  packr: ReturnType<typeof newRecordPackr>,
  rejectedRows: number,
): Manifest {
  const ctx = build.context;
  return {
    format: 'omm-snapshot',
    formatVersion: `${FORMAT_MAJOR}.${FORMAT_MINOR}`,
    buildId,
    compiler: COMPILER_VERSION,
    counts: {
      songs: ctx.songs.count,
      albums: ctx.albums.count,
      artists: ctx.artists.count,
      playlists: ctx.playlists.count,
      stations: ctx.stations.count,
      customStations: ctx.customStations.count,
      genres: ctx.genres.length,
      files: edges.files.count,
      lyrics: edges.lyrics.count,
      exploreGroups: build.explore.length,
    },
    sources,
    shards: written,
    structures: (packr as unknown as { structures: unknown[] }).structures.map((s) => [...(s as unknown[])]),
    search: SEARCH_INDEX_INFO,
    rejectedRows,
  };
}

/** With `changes`, where the raw catalog's change journal stood: a delta compile reads the deliveries after it (docs/segments.md). */
export function withJournalPosition(manifest: Manifest, rawDir: string): Manifest {
  const changes = journalPosition(rawDir);
  return changes > 0 ? { ...manifest, changes } : manifest;
}

/**
 * Writes the manifest of every shard: with views, a first manifest of the records and indexes
 * written so far, from which the views are rendered while the search index may still be
 * building, then the full one; without, the full one at once.
 */
export async function finishManifest(
  manifest: Manifest,
  { stagingDir, views, ctx, written, progress }: { stagingDir: string; views: boolean; ctx: BuildContext; written: Manifest['shards']; progress: Progress },
  searchJob: Promise<NamedSearchShard[]>,
): Promise<Manifest> {
  const writeManifest = (m: Manifest) =>
    new ShardWriter(join(stagingDir, MANIFEST_FILE), SHARD_KINDS.manifest, m.buildId).finish(m as unknown as Record<string, unknown>);
  const searchShards = async () => (await searchJob).map((s) => entry(s, s.name));
  if (!views) {
    const full = { ...manifest, shards: [...written, ...(await searchShards())] };
    writeManifest(full);
    return full;
  }
  writeManifest(manifest);
  progress.start('rendering views');
  const counts = { song: ctx.songs.count, album: ctx.albums.count, artist: ctx.artists.count, playlist: ctx.playlists.count };
  const viewShards = await writeAllViews(stagingDir, manifest.buildId, counts, { onRow: progress.tick });
  progress.done();
  const full: Manifest = {
    ...manifest,
    shards: [...written, ...(await searchShards()), ...viewShards.map((s) => entry(s, tableOf(s.path)))],
    views: { version: VIEWS_VERSION, tables: [...new Set(viewShards.map((s) => tableOf(s.path)))] },
  };
  writeManifest(full);
  return full;
}
