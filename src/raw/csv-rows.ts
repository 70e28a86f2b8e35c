import { open } from 'node:fs/promises';
import { CsvParser } from './csv-parser.js';

export interface CsvRow {
  /** 1-based line on which the row starts (the header row is line 1). */
  readonly line: number;
  readonly cells: string[];
}

/** What reading a file took: its bytes (up to where reading stopped). */
export interface CsvRead {
  bytes: number;
}

const CHUNK = 1 << 20;

/**
 * Streams the rows of a CSV file (RFC 4180, src/raw/csv-parser.ts) into a synchronous callback,
 * with the line each row starts on, and counts the bytes read. Memory stays at one 1 MiB chunk
 * plus one row. Returning `false` from the callback stops reading. (The compile hashes raw files
 * separately, before parsing: compile/raw-file.ts digestRawFiles.)
 */
export async function streamCsvRows(path: string, onRow: (row: CsvRow) => boolean | void): Promise<CsvRead> {
  const parser = new CsvParser((cells, line) => onRow({ line, cells }));
  const handle = await open(path, 'r');
  let bytes = 0;
  // The next chunk's read is under way while this one is parsed (two buffers, one read at a
  // time, in order); the parser keeps no reference to a chunk it has been given.
  const chunks = [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)];
  let pending: Promise<{ bytesRead: number; buffer: Buffer }> | null = handle.read(chunks[0], 0, CHUNK, 0);
  try {
    for (let turn = 1; ; turn++) {
      const { bytesRead, buffer } = await pending;
      pending = null;
      if (bytesRead === 0) break;
      bytes += bytesRead;
      pending = handle.read(chunks[turn & 1], 0, CHUNK, bytes);
      parser.push(buffer.subarray(0, bytesRead));
      if (parser.isStopped) return { bytes };
    }
    parser.end();
  } finally {
    // A read still under way (the callback stopped reading, or threw) finishes before the file closes.
    if (pending) await pending.catch(() => undefined);
    await handle.close();
  }
  return { bytes };
}
