/**
 * An input file's bytes as a stream, decompressed: `.gz` with node:zlib, `.xz` with
 * xz-decompress (xz-embedded in WebAssembly: streams with constant memory and needs no native
 * addon or system `xz`). Errors while reading become E_IMPORT_IO naming the file.
 */
import { createReadStream } from 'node:fs';
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createGunzip } from 'node:zlib';
import xzDecompress from 'xz-decompress';
import { ImportError } from '../import-error.js';
import type { Compression } from './input-files.js';

const READ_CHUNK = 1024 * 1024;

/** The decompressed bytes of `path`. */
export function openBytes(path: string, compression: Compression): Readable {
  const raw = createReadStream(path, { highWaterMark: READ_CHUNK });
  switch (compression) {
    case 'none':
      return raw;
    case 'gzip':
      return pipeline(raw, createGunzip({ chunkSize: 256 * 1024 }), () => {
        // errors reach the reader through the returned stream
      });
    case 'xz': {
      const web = Readable.toWeb(raw) as unknown as ReadableStream<Uint8Array>;
      const xz = new xzDecompress.XzReadableStream(web) as unknown as WebReadableStream<Uint8Array>;
      return Readable.fromWeb(xz);
    }
  }
}

/** xz-embedded's return codes (xz.h), for messages. */
const XZ_ERRORS: Record<string, string> = {
  '2': 'unsupported integrity check (this decoder reads CRC32 and CRC64 files; decompress with `xz -d` first)',
  '3': 'out of memory',
  '4': 'dictionary larger than the memory limit',
  '5': 'not an .xz file',
  '6': 'unsupported .xz options (this decoder reads CRC32 and CRC64 files with the LZMA2 filter; decompress with `xz -d` first)',
  '7': 'corrupt data',
  '8': 'truncated, or not an .xz file',
};

/** The chunks of `stream`, with a read error as E_IMPORT_IO naming `file`. */
export async function* guardedChunks(stream: AsyncIterable<Uint8Array>, file: string): AsyncGenerator<Uint8Array> {
  try {
    yield* stream;
  } catch (e) {
    if (e instanceof ImportError) throw e;
    throw readError(file, e);
  }
}

export function readError(file: string, e: unknown): ImportError {
  const message = e instanceof Error ? e.message : String(e);
  const xz = /get_next_output failed with error code (\d+)/.exec(message);
  const detail = xz ? `xz: ${XZ_ERRORS[xz[1]] ?? `error ${xz[1]}`}` : message;
  return new ImportError('E_IMPORT_IO', { file }, `cannot read: ${detail}`);
}
