import { createHash } from 'node:crypto';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type BuildDescriptor, chunkKey, chunkSpans, type ObjectStore, StoreError } from '../object-store/index.js';
import type { LocalChunk } from './build-cache.js';

export interface FetchProgress {
  readonly bytesDone: number;
  readonly bytesTotal: number;
}

/** Where a build's bytes came from. */
export interface FetchSummary {
  /** Fetched from the store. */
  readonly bytesFetched: number;
  readonly chunksFetched: number;
  /** Copied from the builds already cached here (chunks they share). */
  readonly bytesCopied: number;
  /** Already in the download directory from an interrupted earlier try. */
  readonly bytesResumed: number;
  readonly ms: number;
}

interface ChunkTask {
  readonly file: FileHandle;
  /** The file held bytes before this try: its chunks may already be there. */
  readonly resumable: boolean;
  readonly offset: number;
  readonly length: number;
  readonly sha256: string;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function readExactly(file: FileHandle, length: number, offset: number): Promise<Buffer | null> {
  const bytes = Buffer.allocUnsafe(length);
  const { bytesRead } = await file.read(bytes, 0, length, offset);
  return bytesRead === length ? bytes : null;
}

/** The chunk's bytes from another cached build, when it holds them intact. */
async function copyLocal(source: LocalChunk | undefined, task: ChunkTask): Promise<Buffer | null> {
  if (!source || source.length !== task.length) return null;
  let file: FileHandle;
  try {
    file = await open(source.path, 'r');
  } catch {
    return null; // pruned meanwhile
  }
  try {
    const bytes = await readExactly(file, source.length, source.offset);
    return bytes && sha256(bytes) === task.sha256 ? bytes : null;
  } finally {
    await file.close();
  }
}

async function fetchChunk(store: ObjectStore, task: ChunkTask, buildId: string): Promise<Buffer> {
  const key = chunkKey(task.sha256);
  const got = await store.get(key);
  if (got === null) throw new StoreError('E_STORE_MISSING', `build ${buildId} names a chunk the store does not hold`, key);
  if (got === 'not-modified') throw new Error('unreachable: no If-None-Match was sent');
  if (got.body.length !== task.length || sha256(got.body) !== task.sha256)
    throw new StoreError('E_STORE_CORRUPT', `a chunk of build ${buildId} does not match its digest (${got.body.length} bytes): refused`, key);
  return got.body;
}

/** Opens (creating) every file of the build in `workDir` at its final size. */
async function openFiles(descriptor: BuildDescriptor, workDir: string): Promise<{ handles: FileHandle[]; tasks: ChunkTask[] }> {
  const handles: FileHandle[] = [];
  const tasks: ChunkTask[] = [];
  for (const file of descriptor.files) {
    const path = join(workDir, file.name);
    const before = await stat(path).catch(() => null);
    const handle = await open(path, before ? 'r+' : 'w+');
    handles.push(handle);
    if (before?.size !== file.size) await handle.truncate(file.size);
    for (const span of chunkSpans(file)) tasks.push({ file: handle, resumable: before !== null, ...span });
  }
  return { handles, tasks };
}

/**
 * Writes every file of a build into `workDir`, chunk by chunk, `concurrency` at a time: a chunk
 * already there from an interrupted try is kept, one a cached build holds is copied, the rest
 * are fetched; every chunk's bytes are checked against its digest before they are written, so a
 * damaged or substituted object fails the build (E_STORE_CORRUPT) rather than reaching a file.
 */
export async function fetchBuild(
  store: ObjectStore,
  descriptor: BuildDescriptor,
  workDir: string,
  local: ReadonlyMap<string, LocalChunk>,
  options: { concurrency?: number; progress?: (p: FetchProgress) => void } = {},
): Promise<FetchSummary> {
  const started = performance.now();
  const { handles, tasks } = await openFiles(descriptor, workDir);
  const bytesTotal = tasks.reduce((sum, t) => sum + t.length, 0);
  const totals = { bytesFetched: 0, chunksFetched: 0, bytesCopied: 0, bytesResumed: 0 };
  let bytesDone = 0;
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < tasks.length) {
      const task = tasks[next++];
      const present = task.resumable ? await readExactly(task.file, task.length, task.offset) : null;
      if (present && sha256(present) === task.sha256) {
        totals.bytesResumed += task.length;
      } else {
        let bytes = await copyLocal(local.get(task.sha256), task);
        if (bytes) totals.bytesCopied += task.length;
        else {
          bytes = await fetchChunk(store, task, descriptor.buildId);
          totals.bytesFetched += task.length;
          totals.chunksFetched++;
        }
        await task.file.write(bytes, 0, bytes.length, task.offset);
      }
      bytesDone += task.length;
      options.progress?.({ bytesDone, bytesTotal });
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 8, tasks.length)) }, () =>
    worker().catch((err: unknown) => {
      failed = true;
      throw err;
    }),
  );
  // Every worker stops before the files close, the first failure reported.
  const settled = await Promise.allSettled(workers);
  await Promise.all(handles.map((h) => h.close()));
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
  return { ...totals, ms: Math.round(performance.now() - started) };
}
