import { join } from 'node:path';
import { resolveSnapshotDir, Snapshot } from '../index-format/index.js';
import { MANIFEST_FILE } from '../index-format/manifest.js';
import {
  chunkFile,
  CHUNKS,
  chunksOf,
  descriptorKey,
  encodeJson,
  type BuildDescriptor,
  type ObjectStore,
  type RemoteFile,
  sha256Hex,
  StoreError,
} from '../object-store/index.js';
import { swapPointer, type PointerSwap } from './pointer-swap.js';
import { pruneStore, type PruneSummary } from './prune-store.js';
import { chunksToUpload, type UploadProgress, uploadChunks } from './upload-chunks.js';

export interface PublishOptions {
  /** Uploads in flight at once (default 8). */
  readonly concurrency?: number;
  /** After the pointer moved, keep this many builds (the one in service included) and prune the rest. */
  readonly keep?: number;
  /** Chunks younger than this are never pruned (another publish may be about to name them). */
  readonly pruneGraceMs?: number;
  readonly progress?: (event: PublishProgress) => void;
  readonly now?: () => Date;
}

export type PublishProgress =
  | { readonly phase: 'chunking'; readonly filesDone: number; readonly files: number }
  | ({ readonly phase: 'uploading' } & UploadProgress);

export interface PublishSummary {
  readonly buildId: string;
  readonly files: number;
  readonly bytes: number;
  readonly chunks: number;
  readonly chunksUploaded: number;
  /** Of those, chunks the store held damaged (an entity tag that is not their MD5), sent again. */
  readonly chunksRepaired: number;
  readonly bytesUploaded: number;
  readonly pointer: PointerSwap;
  readonly pruned: PruneSummary | null;
  readonly ms: { readonly chunking: number; readonly uploading: number; readonly total: number };
}

/**
 * The snapshot's files cut into chunks, each file's digest checked against the manifest on the
 * way (a shard changed or damaged since its compile is refused before anything is sent).
 */
async function describe(dir: string, progress?: (event: PublishProgress) => void): Promise<{ descriptor: BuildDescriptor; md5Of: Map<string, string> }> {
  const snapshot = Snapshot.open(dir);
  const manifest = snapshot.manifest;
  snapshot.close();
  const names = [MANIFEST_FILE, ...manifest.shards.map((s) => s.file)];
  const expected = new Map(manifest.shards.map((s) => [s.file, s.sha256]));
  const files: RemoteFile[] = [];
  const md5Of = new Map<string, string>();
  for (const [i, name] of names.entries()) {
    const chunked = await chunkFile(join(dir, name));
    const want = expected.get(name);
    if (want !== undefined && want !== chunked.sha256)
      throw new StoreError(
        'E_STORE_CORRUPT',
        `${name}'s SHA-256 is ${chunked.sha256}, the manifest says ${want}: run omm verify; nothing was published`,
        join(dir, name),
      );
    files.push({ name, size: chunked.size, sha256: chunked.sha256, chunks: chunked.chunks.map((c) => [c.sha256, c.length] as const) });
    for (const c of chunked.chunks) md5Of.set(c.sha256, c.md5);
    progress?.({ phase: 'chunking', filesDone: i + 1, files: names.length });
  }
  return { descriptor: { format: 'omm-build', version: 1, buildId: manifest.buildId, files }, md5Of };
}

/** The chunks in the store: digest -> entity tag. */
async function chunksInStore(store: ObjectStore): Promise<Map<string, string>> {
  const present = new Map<string, string>();
  for await (const object of store.list(CHUNKS)) present.set(object.key.slice(CHUNKS.length), object.etag);
  return present;
}

/**
 * Publishes a snapshot to an object store: its chunks the store lacks, then its descriptor, then
 * the pointer (docs/operations.md, "Publishing to object storage").
 */
export async function publishBuild(snapshotPath: string, store: ObjectStore, options: PublishOptions = {}): Promise<PublishSummary> {
  const started = performance.now();
  const dir = resolveSnapshotDir(snapshotPath);
  const { descriptor, md5Of } = await describe(dir, options.progress);
  const chunked = performance.now();
  const { pending, repairs } = chunksToUpload(dir, descriptor.files, await chunksInStore(store), md5Of);
  await uploadChunks(store, pending, options.concurrency ?? 8, (p) => options.progress?.({ phase: 'uploading', ...p }));
  const body = encodeJson(descriptor);
  await store.put(descriptorKey(descriptor.buildId), body);
  const uploaded = performance.now();
  // A repaired build is named again even if the pointer named it: replicas that refused it
  // try again only when the pointer changes.
  const pointer = await swapPointer(store, descriptor.buildId, sha256Hex(body), options.now ?? (() => new Date()), repairs > 0);
  const pruned = options.keep === undefined ? null : await pruneStore(store, options.keep, { graceMs: options.pruneGraceMs, now: options.now });
  return {
    buildId: descriptor.buildId,
    files: descriptor.files.length,
    bytes: descriptor.files.reduce((sum, f) => sum + f.size, 0),
    chunks: chunksOf(descriptor).size,
    chunksUploaded: pending.length,
    chunksRepaired: repairs,
    bytesUploaded: pending.reduce((sum, c) => sum + c.length, 0),
    pointer,
    pruned,
    ms: { chunking: Math.round(chunked - started), uploading: Math.round(uploaded - chunked), total: Math.round(performance.now() - started) },
  };
}
