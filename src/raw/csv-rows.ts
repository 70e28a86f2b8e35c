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
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, null);
      if (bytesRead === 0) break;
      const data = chunk.subarray(0, bytesRead);
      bytes += bytesRead;
      parser.push(data);
      if (parser.isStopped) return { bytes };
    }
    parser.end();
  } finally {
    await handle.close();
  }
  return { bytes };
}
