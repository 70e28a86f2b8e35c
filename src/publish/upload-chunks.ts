import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { chunkKey, type ObjectStore, type RemoteFile } from '../object-store/index.js';

/** What uploading has done so far, for a progress line. */
export interface UploadProgress {
  readonly chunksDone: number;
  readonly chunksToUpload: number;
  readonly bytesDone: number;
  readonly bytesToUpload: number;
}

interface PendingChunk {
  readonly file: string;
  readonly offset: number;
  readonly length: number;
  readonly sha256: string;
}

/** The chunks of `files` not in `present`, each once (a chunk two files share is sent once). */
export function chunksToUpload(dir: string, files: readonly RemoteFile[], present: ReadonlySet<string>): PendingChunk[] {
  const pending: PendingChunk[] = [];
  const planned = new Set<string>();
  for (const file of files) {
    let offset = 0;
    for (const [sha256, length] of file.chunks) {
      if (!present.has(sha256) && !planned.has(sha256)) {
        planned.add(sha256);
        pending.push({ file: join(dir, file.name), offset, length, sha256 });
      }
      offset += length;
    }
  }
  return pending;
}

/**
 * Sends the pending chunks, `concurrency` at a time, each read from its file with a positioned
 * read (at most CHUNK_MAX bytes in memory per upload in flight). A chunk is named by its digest,
 * so a publish interrupted anywhere resumes by sending only what the store does not hold yet.
 */
export async function uploadChunks(
  store: ObjectStore,
  pending: readonly PendingChunk[],
  concurrency: number,
  progress?: (p: UploadProgress) => void,
): Promise<void> {
  const bytesToUpload = pending.reduce((sum, c) => sum + c.length, 0);
  let next = 0;
  let chunksDone = 0;
  let bytesDone = 0;
  const worker = async () => {
    while (next < pending.length) {
      const chunk = pending[next++];
      const handle = await open(chunk.file, 'r');
      let body: Buffer;
      try {
        body = Buffer.allocUnsafe(chunk.length);
        const { bytesRead } = await handle.read(body, 0, chunk.length, chunk.offset);
        if (bytesRead !== chunk.length) throw new Error(`${chunk.file} ended at ${chunk.offset + bytesRead} while publishing it: changed since it was chunked`);
      } finally {
        await handle.close();
      }
      await store.put(chunkKey(chunk.sha256), body);
      chunksDone++;
      bytesDone += chunk.length;
      progress?.({ chunksDone, chunksToUpload: pending.length, bytesDone, bytesToUpload });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, pending.length)) }, worker));
}
