import { open } from 'node:fs/promises';

/** Bytes of each read. */
export const READ_AHEAD_CHUNK = 1 << 20;

/**
 * Reads a file front to back in chunks of READ_AHEAD_CHUNK and hands each to `onChunk`, with the
 * next chunk's read already under way while `onChunk` runs (two buffers, one read at a time, in
 * order): a file costs about the longer of reading and handling it rather than their sum. A chunk
 * is valid only during its call; `onChunk` returning `false` stops reading. Returns the bytes
 * handed over. A read still under way when it stops or throws finishes before the file closes.
 */
export async function readAhead(path: string, onChunk: (chunk: Buffer) => boolean | void): Promise<number> {
  const handle = await open(path, 'r');
  const chunks = [Buffer.allocUnsafe(READ_AHEAD_CHUNK), Buffer.allocUnsafe(READ_AHEAD_CHUNK)];
  let bytes = 0;
  let pending: Promise<{ bytesRead: number; buffer: Buffer }> | null = handle.read(chunks[0], 0, READ_AHEAD_CHUNK, 0);
  try {
    for (let turn = 1; pending; turn++) {
      const { bytesRead, buffer } = await pending;
      pending = null;
      if (bytesRead === 0) break;
      bytes += bytesRead;
      pending = handle.read(chunks[turn & 1], 0, READ_AHEAD_CHUNK, bytes);
      if (onChunk(buffer.subarray(0, bytesRead)) === false) break;
    }
  } finally {
    if (pending) await pending.catch(() => undefined);
    await handle.close();
  }
  return bytes;
}
