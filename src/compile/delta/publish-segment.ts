import { createHash } from 'node:crypto';
import { linkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../../catalog/catalog.js';
import { MAX_SEGMENTS } from '../../catalog/segments.js';
import { SHARD_KINDS } from '../../index-format/constants.js';
import { FormatError } from '../../index-format/errors.js';
import { MANIFEST_FILE, type Manifest, type ManifestSegment, type ManifestShard } from '../../index-format/manifest.js';
import { VIEW_TYPES } from '../../catalog/views.js';
import { renderDeltaViews } from './delta-views.js';
import { createStagingDir, publishSnapshot } from '../../index-format/publish.js';
import { ShardWriter } from '../../index-format/shards/shard-writer.js';
import type { DeltaContent } from './delta-content.js';
import { writeDeltaSearch } from './delta-search.js';
import { writeDeltaShards } from './write-delta.js';

export interface PublishedSegment {
  readonly buildId: string;
  readonly dir: string;
  /** The delta's own shards and the manifest: what the new snapshot does not share. */
  readonly bytesWritten: number;
  readonly segments: number;
}

/** What a delta may be added to: an ordinary or segmented snapshot, never a takedown snapshot or a full one. */
export function segmentsOf(prev: Catalog): ManifestSegment[] {
  const from = prev.snapshot.manifest;
  if (from.deletes) {
    throw new FormatError(
      'E_SNAPSHOT_MISMATCH',
      `snapshot ${from.buildId} is a takedown snapshot: compile in full to fold its takedowns in, then add deltas`,
      prev.snapshot.dir,
    );
  }
  const segments: ManifestSegment[] = from.segments ? [...from.segments] : [{ role: 'base', buildId: from.buildId, structures: from.structures }];
  if (segments.length >= MAX_SEGMENTS)
    throw new FormatError('E_SNAPSHOT_MISMATCH', `snapshot ${from.buildId} already has ${segments.length} segments`, prev.snapshot.dir);
  return segments;
}

/**
 * Publishes, in `distDir`, the snapshot `prev` is (`distDir/current`) plus one delta segment
 * holding `content`: every shard of `prev` hard-linked (none copied or rewritten), the delta's own
 * shards, and a manifest naming the segments in order (docs/segments.md), published atomically
 * like a compile's. `described` is what the manifest says of the catalog (counts, sources,
 * journal position); `deltaId` names the segment.
 */
export function publishSegment(
  distDir: string,
  prev: Catalog,
  deltaId: string,
  content: DeltaContent,
  described: Omit<Manifest, 'buildId' | 'structures' | 'shards' | 'segments'>,
  keep: number,
): PublishedSegment {
  const from = prev.snapshot.manifest;
  const segments = segmentsOf(prev);
  const segment = segments.length;
  const staging = createStagingDir(distDir);
  try {
    for (const shard of from.shards) linkSync(join(prev.snapshot.dir, shard.file), join(staging, shard.file));
    const delta = writeDeltaShards(staging, `d${segment}-`, segment, deltaId, content);
    const search = writeDeltaSearch(distDir, staging, `d${segment}-`, segment, deltaId, content);
    segments.push({ role: 'delta', buildId: deltaId, structures: content.structures() });
    const buildId = segmentedBuildId(segments);
    const manifestOf = (shards: ManifestShard[]) =>
      ({ ...described, buildId, structures: segments[0].structures, shards: [...from.shards, ...shards], segments }) as Manifest;
    let own = [...delta.entries, ...search];
    const write = () =>
      new ShardWriter(join(staging, MANIFEST_FILE), SHARD_KINDS.manifest, buildId).finish(manifestOf(own) as unknown as Record<string, unknown>);
    if (rendersViews(from, content)) {
      // The records first, then the views rendered over them (delta-views.ts), as a compile does.
      write();
      own = [...own, ...renderDeltaViews(staging, `d${segment}-`, segment, deltaId, content.plan)];
    }
    const written = write();
    const dir = publishSnapshot(distDir, staging, buildId, keep, new Set(from.shards.map((shard) => shard.file)));
    return { buildId, dir, bytesWritten: own.reduce((n, e) => n + e.size, 0) + written.size, segments: segments.length };
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

/** Whether the delta's views are to be rendered here: the snapshot stores views, and the content brings none of its own. */
function rendersViews(from: Manifest, content: DeltaContent): boolean {
  if (!from.views) return false;
  const type = VIEW_TYPES.find((t) => content.plan[t].held.length > 0);
  return type !== undefined && content.view('v1', type, 0) === null;
}

/** A segmented snapshot's build id: a digest of its segments' build ids, in order. */
export function segmentedBuildId(segments: readonly ManifestSegment[]): string {
  return digest('omm-segments', ...segments.map((s) => s.buildId));
}

export function digest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);
}
