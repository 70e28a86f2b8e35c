import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

/** One content-defined chunk of a file. */
export interface FileChunk {
  readonly offset: number;
  readonly length: number;
  /** SHA-256 of the chunk's bytes, lowercase hex: the object it is published as. */
  readonly sha256: string;
  /** MD5 of the chunk's bytes: what a store's entity tag for it is when it was uploaded whole. */
  readonly md5: string;
}

export interface ChunkedFile {
  readonly size: number;
  readonly sha256: string;
  readonly chunks: readonly FileChunk[];
}

/**
 * Chunk sizes. A chunk ends where the gear hash of the bytes before it has its low bits zero, so
 * an insertion moves only the cuts near it (FastCDC, Xia et al., USENIX ATC 2016, with its
 * normalised chunking: a stricter mask before the average size, a looser one after it).
 */
export const CHUNK_MIN = 256 * 1024;
export const CHUNK_AVERAGE_BITS = 20;
export const CHUNK_MAX = 4 * 1024 * 1024;

const MASK_STRICT = 2 ** (CHUNK_AVERAGE_BITS + 2) - 1;
const MASK_LOOSE = 2 ** (CHUNK_AVERAGE_BITS - 2) - 1;

/** 256 pseudo-random 32-bit words (xorshift32 from 0x9e3779b9): part of the published format. */
const GEAR = (() => {
  const table = new Uint32Array(256);
  let s = 0x9e3779b9;
  for (let i = 0; i < 256; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    table[i] = s;
  }
  return table;
})();

/** Where the chunk starting at `start` of `bytes[start, end)` ends (`end` when it may continue past it). */
export function chunkEnd(bytes: Uint8Array, start: number, end: number): number {
  const available = end - start;
  if (available <= CHUNK_MIN) return end;
  const stop = start + Math.min(available, CHUNK_MAX);
  const average = start + Math.min(available, 2 ** CHUNK_AVERAGE_BITS);
  let hash = 0;
  let i = start + CHUNK_MIN;
  for (; i < average; i++) {
    hash = ((hash << 1) + GEAR[bytes[i]]) >>> 0;
    if ((hash & MASK_STRICT) === 0) return i + 1;
  }
  for (; i < stop; i++) {
    hash = ((hash << 1) + GEAR[bytes[i]]) >>> 0;
    if ((hash & MASK_LOOSE) === 0) return i + 1;
  }
  return stop;
}

const WINDOW = 4 * CHUNK_MAX;

/** Cuts a file into content-defined chunks, hashing each and the whole file in one read. */
export async function chunkFile(path: string): Promise<ChunkedFile> {
  const handle = await open(path, 'r');
  try {
    const window = Buffer.allocUnsafe(WINDOW);
    const whole = createHash('sha256');
    const chunks: FileChunk[] = [];
    let filled = 0;
    let base = 0; // file offset of window[0]
    let eof = false;
    for (;;) {
      while (!eof && filled < WINDOW) {
        const { bytesRead } = await handle.read(window, filled, WINDOW - filled, base + filled);
        if (bytesRead === 0) eof = true;
        filled += bytesRead;
      }
      let start = 0;
      // Cut while a whole maximum chunk is in the window (or the file's end is).
      while (start < filled && (eof || filled - start >= CHUNK_MAX)) {
        const cut = eof ? chunkEnd(window, start, filled) : chunkEnd(window, start, start + CHUNK_MAX);
        const bytes = window.subarray(start, cut);
        whole.update(bytes);
        chunks.push({
          offset: base + start,
          length: cut - start,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          md5: createHash('md5').update(bytes).digest('hex'),
        });
        start = cut;
      }
      if (eof && start >= filled) return { size: base + filled, sha256: whole.digest('hex'), chunks };
      window.copy(window, 0, start, filled);
      filled -= start;
      base += start;
    }
  } finally {
    await handle.close();
  }
}
