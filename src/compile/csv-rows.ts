import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { parse } from 'fast-csv';

export interface CsvRow {
  /** 1-based line on which the row starts (the header row is line 1). */
  readonly line: number;
  readonly cells: string[];
}

export interface CsvDigest {
  bytes: number;
  sha256: string;
}

/**
 * Streams the rows of a CSV file (RFC 4180, via fast-csv), with the line each row starts on,
 * and digests the file's bytes on the way. Memory stays at one chunk plus one row.
 */
export async function* readCsvRows(path: string, digest?: CsvDigest): AsyncGenerator<CsvRow> {
  const hash = createHash('sha256');
  let bytes = 0;
  const input = createReadStream(path, { highWaterMark: 1 << 20 });
  input.on('data', (chunk) => {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  });
  const parser = input.pipe(parse({ headers: false, ignoreEmpty: false, trim: false }));
  input.on('error', (err) => parser.destroy(err));
  let line = 1;
  let first = true;
  for await (const cells of parser as AsyncIterable<string[]>) {
    if (first && cells.length > 0 && cells[0].charCodeAt(0) === 0xfeff) cells[0] = cells[0].slice(1);
    first = false;
    const start = line;
    line += 1;
    for (const cell of cells) {
      if (cell.length > 0 && cell.indexOf('\n') !== -1) line += cell.split('\n').length - 1;
    }
    // A blank line parses as one empty cell: skip it but keep counting lines.
    if (cells.length === 1 && cells[0] === '') continue;
    yield { line: start, cells };
  }
  if (digest) {
    digest.bytes = bytes;
    digest.sha256 = hash.digest('hex');
  }
}
