import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { CsvParser } from './csv-parser.js';

export interface CsvRow {
  /** 1-based line on which the row starts (the header row is line 1). */
  readonly line: number;
  readonly cells: string[];
}

export interface CsvDigest {
  bytes: number;
  sha256: string;
}

const CHUNK = 1 << 20;

/**
 * Streams the rows of a CSV file (RFC 4180, src/raw/csv-parser.ts) into a synchronous callback,
 * with the line each row starts on, and digests the file's bytes on the way. Memory stays at one
 * 1 MiB chunk plus one row. `digest: false` skips the SHA-256 (second pass). Returning `false` from the callback stops reading (no digest then).
 */
export async function streamCsvRows(path: string, onRow: (row: CsvRow) => boolean | void, options: { digest?: boolean } = {}): Promise<CsvDigest> {
  const hash = options.digest === false ? null : createHash('sha256');
  const parser = new CsvParser((cells, line) => onRow({ line, cells }));
  const handle = await open(path, 'r');
  let bytes = 0;
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, null);
      if (bytesRead === 0) break;
      const data = chunk.subarray(0, bytesRead);
      hash?.update(data);
      bytes += bytesRead;
      parser.push(data);
      if (parser.isStopped) return { bytes, sha256: '' };
    }
    parser.end();
  } finally {
    await handle.close();
  }
  return { bytes, sha256: hash ? hash.digest('hex') : '' };
}
