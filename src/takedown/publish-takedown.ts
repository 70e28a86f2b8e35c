import { createHash } from 'node:crypto';
import { linkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DELETABLE_TYPES } from '../catalog/deletes.js';
import { SHARD_KINDS } from '../index-format/constants.js';
import { DELETES_TABLE, MANIFEST_FILE, type Manifest, type ManifestShard } from '../index-format/manifest.js';
import { createStagingDir, publishSnapshot } from '../index-format/publish.js';
import type { Snapshot } from '../index-format/index.js';
import { ShardWriter } from '../index-format/shards/shard-writer.js';
import { ArrayTableWriter } from '../index-format/tables/array-table.js';
import type { TakedownPlan } from './resolve-takedown.js';

/** The deletes set's shard file in a takedown snapshot. */
const DELETES_FILE = 'deletes.arr';

/**
 * A takedown snapshot's build id: a digest of the build whose shards it shares and of its
 * deletes set, so the same takedown of the same build is the same snapshot.
 */
export function takedownBuildId(baseBuildId: string, plan: TakedownPlan): string {
  const hash = createHash('sha256').update(`omm-takedown\n${baseBuildId}\n`);
  for (const type of DELETABLE_TYPES) hash.update(`${type}:${plan.set[type].length}\n`).update(plan.set[type]);
  return hash.digest('hex').slice(0, 16);
}

/**
 * Publishes the snapshot `from` with the plan's deletes set: a new snapshot directory holding a
 * hard link to every shard of `from` (none is copied or rewritten; a takedown of a takedown
 * snapshot shares its base's shards and replaces its deletes set), the deletes set's own shard
 * and a manifest naming them, published atomically like a compile's (publish.ts). Returns the
 * new build id and the bytes it wrote (the manifest and the deletes set).
 */
export function publishTakedown(distDir: string, from: Snapshot, plan: TakedownPlan, keep: number): { buildId: string; dir: string; bytesWritten: number } {
  const base = from.manifest;
  const baseBuildId = base.baseBuildId ?? base.buildId;
  const buildId = takedownBuildId(baseBuildId, plan);
  const staging = createStagingDir(distDir);
  try {
    const shared = base.shards.filter((s) => !(s.kind === SHARD_KINDS.arrays && s.name === DELETES_TABLE));
    for (const shard of shared) linkSync(join(from.dir, shard.file), join(staging, shard.file));
    const table = new ArrayTableWriter();
    for (const type of DELETABLE_TYPES) table.array(type, plan.set[type]);
    const written = table.write(join(staging, DELETES_FILE), buildId, { takedown: true });
    const deletesEntry: ManifestShard = { file: DELETES_FILE, kind: written.kind, name: DELETES_TABLE, size: written.size, sha256: written.sha256 };
    const manifest: Manifest = { ...base, buildId, baseBuildId, deletes: plan.counts, shards: [...shared, deletesEntry] };
    const manifestShard = new ShardWriter(join(staging, MANIFEST_FILE), SHARD_KINDS.manifest, buildId).finish(manifest as unknown as Record<string, unknown>);
    const dir = publishSnapshot(distDir, staging, buildId, keep, new Set(shared.map((shard) => shard.file)));
    return { buildId, dir, bytesWritten: written.size + manifestShard.size };
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}
