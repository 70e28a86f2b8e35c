import { createHash } from 'node:crypto';
import { linkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Catalog } from '../../catalog/catalog.js';
import { MAX_SEGMENTS } from '../../catalog/segments.js';
import { SHARD_KINDS } from '../../index-format/constants.js';
import { FormatError } from '../../index-format/errors.js';
import { MANIFEST_FILE, type Manifest, type ManifestSegment } from '../../index-format/manifest.js';
import { createStagingDir, publishSnapshot } from '../../index-format/publish.js';
import { ShardWriter } from '../../index-format/shards/shard-writer.js';
import { planDelta, type DeltaPlan } from './delta-plan.js';
import { writeDeltaShards } from './write-delta.js';
import { writeDeltaSearch } from './delta-search.js';
import { referenceContent } from './reference-content.js';

export interface PublishedDelta {
  readonly buildId: string;
  readonly dir: string;
  /** The delta's own shards and the manifest: what the new snapshot does not share. */
  readonly bytesWritten: number;
  readonly segments: number;
  readonly plan: DeltaPlan;
}

/**
 * Publishes, in `distDir`, the snapshot `distDir/current` names plus one delta segment that makes
 * it answer as `next` (a full compile of the changed raw catalog) does: every shard of the
 * snapshot in service hard-linked (none copied or rewritten), the delta's own shards, and a
 * manifest naming the segments in order (docs/segments.md), published atomically like a
 * compile's. Returns null, publishing nothing, when `next` holds no change.
 */
export function publishDelta(distDir: string, next: Catalog, keep = 3): PublishedDelta | null {
  const prev = Catalog.open(distDir, { searchable: false });
  try {
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
    const plan = planDelta(prev, next);
    if (Object.values(plan).every((p) => p.held.length === 0 && p.removed.length === 0)) return null;
    const deltaId = digest('omm-delta', from.buildId, next.buildId);
    const content = referenceContent(prev, plan, next);
    segments.push({ role: 'delta', buildId: deltaId, structures: content.structures() });
    const buildId = digest('omm-segments', ...segments.map((s) => s.buildId));
    const staging = createStagingDir(distDir);
    try {
      for (const shard of from.shards) linkSync(join(prev.snapshot.dir, shard.file), join(staging, shard.file));
      const segment = segments.length - 1;
      const delta = writeDeltaShards(staging, `d${segment}-`, segment, deltaId, content);
      const search = writeDeltaSearch(distDir, staging, `d${segment}-`, segment, deltaId, content);
      const { baseBuildId: _base, deletes: _deletes, ...described } = next.snapshot.manifest;
      const manifest: Manifest = { ...described, buildId, structures: segments[0].structures, shards: [...from.shards, ...delta.entries, ...search], segments };
      const written = new ShardWriter(join(staging, MANIFEST_FILE), SHARD_KINDS.manifest, buildId).finish(manifest as unknown as Record<string, unknown>);
      const dir = publishSnapshot(distDir, staging, buildId, keep);
      return { buildId, dir, bytesWritten: delta.bytes + search.reduce((n, e) => n + e.size, 0) + written.size, segments: segments.length, plan };
    } catch (err) {
      rmSync(staging, { recursive: true, force: true });
      throw err;
    }
  } finally {
    prev.close();
  }
}

function digest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);
}
