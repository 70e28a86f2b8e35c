/**
 * The regular-file members of a tar stream, one at a time, each as a stream of its bytes, with
 * node-tar's parser (npm's own tar, streaming, ustar/pax/GNU long names). Only the member being
 * read is buffered: the parser stops taking input until the reader has consumed it.
 */
import type { Readable } from 'node:stream';
import { Parser } from 'tar/parse';
import type { ReadEntry } from 'tar/read-entry';
import { ImportError } from '../import-error.js';
import { readError } from './open-input.js';

export interface TarMember {
  /** The member's path in the archive, e.g. `mbdump/release`. */
  readonly path: string;
  /** Its bytes; what the reader does not consume is skipped. */
  readonly body: AsyncIterable<Buffer>;
}

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/** The files of the tar archive `source` (already decompressed); `file` names it in errors. */
export async function* tarMembers(source: Readable, file: string): AsyncGenerator<TarMember> {
  const parser = new Parser({ strict: true, zstd: false, brotli: false });
  const entries: ReadEntry[] = [];
  let failure: Error | undefined;
  let ended = false;
  let current: ReadEntry | undefined;
  let wake: (() => void) | undefined;
  const signal = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const fail = (error: Error): void => {
    failure ??= error;
    current?.destroy(error); // a member being read would otherwise wait for bytes that never come
    signal();
  };
  parser.on('entry', (entry: ReadEntry) => {
    entries.push(entry);
    signal();
  });
  parser.on('error', fail);
  parser.on('end', () => {
    ended = true;
    signal();
  });
  source.on('error', fail);
  source.pipe(parser);
  try {
    for (;;) {
      if (failure) throw ioError(file, failure);
      const entry = entries.shift();
      if (entry) {
        if (FILE_TYPES.has(entry.type)) {
          current = entry;
          yield { path: entry.path, body: entry };
          current = undefined;
        }
        entry.resume(); // skip what was not read, and any other kind of member
        continue;
      }
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    source.unpipe(parser);
    source.destroy();
  }
}

function ioError(file: string, error: Error): ImportError {
  return error instanceof ImportError ? error : readError(file, error);
}
