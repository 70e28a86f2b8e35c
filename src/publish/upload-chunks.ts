import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { chunkKey, chunkSpans, type ObjectStore, type RemoteFile } from '../object-store/index.js';

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

/** An entity tag that is a plain MD5 of the object (one PUT, no server-side KMS encryption). */
const PLAIN_MD5 = /^[0-9a-f]{32}$/;

/**
 * The chunks of `files` the store lacks, each once (a chunk two files share is sent once), and
 * those it holds damaged: under their digest's name but with an entity tag that is a plain MD5
 * and not the MD5 of these bytes (written wrong, or overwritten). Those are sent again, so a
 * publish repairs what a replica would refuse.
 */
export function chunksToUpload(
  dir: string,
  files: readonly RemoteFile[],
  present: ReadonlyMap<string, string>,
  md5Of: ReadonlyMap<string, string>,
): { pending: PendingChunk[]; repairs: number } {
  const pending: PendingChunk[] = [];
  const planned = new Set<string>();
  let repairs = 0;
  for (const file of files)
    for (const { sha256, offset, length } of chunkSpans(file)) {
      const etag = present.get(sha256);
      const damaged = etag !== undefined && PLAIN_MD5.test(etag) && etag !== md5Of.get(sha256);
      if ((etag === undefined || damaged) && !planned.has(sha256)) {
        planned.add(sha256);
        if (damaged) repairs++;
        pending.push({ file: join(dir, file.name), offset, length, sha256 });
      }
    }
  return { pending, repairs };
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
