import { BUILDS, CHUNKS, chunksOf, descriptorKey, type ObjectStore, parseDescriptor } from '../object-store/index.js';
import { readPointer } from './pointer-swap.js';

export interface PruneSummary {
  readonly keptBuilds: readonly string[];
  readonly buildsDeleted: number;
  readonly chunksDeleted: number;
  readonly bytesDeleted: number;
}

export interface PruneOptions {
  /** Objects younger than this are left alone (default one hour). */
  readonly graceMs?: number;
  readonly now?: () => Date;
}

const HOUR_MS = 3_600_000;

/**
 * Keeps the build in service and the `keep - 1` it replaced most recently (the pointer's
 * history), deletes the other builds' descriptors, then every chunk no kept build uses. Nothing
 * younger than the grace period is deleted: a publish running meanwhile may have sent chunks and
 * a descriptor that no pointer names yet.
 */
export async function pruneStore(store: ObjectStore, keep: number, options: PruneOptions = {}): Promise<PruneSummary> {
  if (!Number.isInteger(keep) || keep < 1) throw new Error(`keep must be a whole number >= 1, got ${keep}`);
  const cutoff = (options.now ?? (() => new Date()))().getTime() - (options.graceMs ?? HOUR_MS);
  const { pointer } = await readPointer(store);
  if (!pointer) return { keptBuilds: [], buildsDeleted: 0, chunksDeleted: 0, bytesDeleted: 0 };
  const kept = [pointer.buildId, ...pointer.history].slice(0, keep);
  const keptKeys = new Set(kept.map(descriptorKey));
  const used = new Set<string>();
  const doomedBuilds: string[] = [];
  for await (const object of store.list(BUILDS)) {
    if (keptKeys.has(object.key) || object.lastModified.getTime() > cutoff) {
      const got = await store.get(object.key);
      if (got && got !== 'not-modified') for (const sha of chunksOf(parseDescriptor(got.body, object.key))) used.add(sha);
    } else {
      doomedBuilds.push(object.key);
    }
  }
  // Descriptors first: a build whose descriptor is gone can no longer be asked for.
  await store.delete(doomedBuilds);
  const doomedChunks: string[] = [];
  let bytesDeleted = 0;
  for await (const object of store.list(CHUNKS)) {
    if (used.has(object.key.slice(CHUNKS.length)) || object.lastModified.getTime() > cutoff) continue;
    doomedChunks.push(object.key);
    bytesDeleted += object.size;
  }
  await store.delete(doomedChunks);
  return { keptBuilds: kept, buildsDeleted: doomedBuilds.length, chunksDeleted: doomedChunks.length, bytesDeleted };
}
