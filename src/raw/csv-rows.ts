import { CsvParser } from './csv-parser.js';
import { readAhead } from './read-ahead.js';

export interface CsvRow {
  /** 1-based line on which the row starts (the header row is line 1). */
  readonly line: number;
  readonly cells: string[];
}

/** What reading a file took: its bytes (up to where reading stopped). */
export interface CsvRead {
  bytes: number;
}

/**
 * Streams the rows of a CSV file (RFC 4180, src/raw/csv-parser.ts) into a synchronous callback,
 * with the line each row starts on, and counts the bytes read. Memory stays at two 1 MiB chunks
 * (read-ahead.ts: the next one is read while this one is parsed; the parser copies the partial
 * row it carries) plus one row. Returning `false` from the callback stops reading. (The compile
 * hashes raw files separately, before parsing: compile/raw-file.ts digestRawFiles.)
 */
export async function streamCsvRows(path: string, onRow: (row: CsvRow) => boolean | void): Promise<CsvRead> {
  const parser = new CsvParser((cells, line) => onRow({ line, cells }));
  const bytes = await readAhead(path, (chunk) => {
    parser.push(chunk);
    return !parser.isStopped;
  });
  if (!parser.isStopped) parser.end();
  return { bytes };
}
