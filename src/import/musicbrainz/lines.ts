/**
 * Splits a byte stream into lines with constant memory: only the current line is held (a release
 * dump line can be a few MB), never the file. A line longer than MAX_LINE_BYTES is an error, so
 * a file with no line breaks cannot take the memory.
 */
import { ImportError } from '../import-error.js';

export const MAX_LINE_BYTES = 256 * 1024 * 1024;

export interface RawLine {
  /** The line's bytes, its line end included. */
  readonly bytes: Buffer;
  /** The line without its line end (`\n` or `\r\n`). */
  readonly content: Buffer;
  /** 1-based. */
  readonly number: number;
}

const toBuffer = (chunk: Uint8Array): Buffer => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));

function rawLine(bytes: Buffer, number: number): RawLine {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 10) end--;
  if (end > 0 && bytes[end - 1] === 13) end--;
  return { bytes, content: bytes.subarray(0, end), number };
}

/** The lines of `chunks`; `file` names the input in the error for an overlong line. */
export async function* splitLines(chunks: AsyncIterable<Uint8Array>, file: string, maxLine = MAX_LINE_BYTES): AsyncGenerator<RawLine> {
  let pieces: Buffer[] = [];
  let pending = 0;
  let number = 0;
  for await (const chunk of chunks) {
    const buf = toBuffer(chunk);
    let start = 0;
    for (let nl = buf.indexOf(10, start); nl >= 0; nl = buf.indexOf(10, start)) {
      const part = buf.subarray(start, nl + 1);
      if (pending + part.length > maxLine) throw overlong(file, number + 1, maxLine);
      const bytes = pieces.length === 0 ? part : Buffer.concat([...pieces, part], pending + part.length);
      pieces = [];
      pending = 0;
      start = nl + 1;
      yield rawLine(bytes, ++number);
    }
    if (start < buf.length) {
      pending += buf.length - start;
      if (pending > maxLine) throw overlong(file, number + 1, maxLine);
      pieces.push(buf.subarray(start));
    }
  }
  if (pending > 0) yield rawLine(Buffer.concat(pieces, pending), ++number);
}

function overlong(file: string, line: number, maxLine: number): ImportError {
  return new ImportError('E_IMPORT_FORMAT', { file, line }, `line longer than ${maxLine / 1024 / 1024} MiB: not a MusicBrainz JSON-lines file`);
}
