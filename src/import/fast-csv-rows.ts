import { createReadStream } from 'node:fs';
import { parse } from 'fast-csv';
import type { CsvRead, CsvRow } from '../raw/csv-rows.js';

/**
 * Reads third-party exports (importers) with fast-csv: lenient about the quirks of files other
 * tools write. The compiler reads our own raw format with the faster strict parser instead.
 *
 * Streams the rows of a CSV file (RFC 4180, via fast-csv) into a synchronous callback, with the
 * line each row starts on, and counts the bytes read. The callback runs inside the
 * parser's data event, so there is no per-row promise and back-pressure is implicit. Memory
 * stays at one chunk plus one row. Returning `false` from the callback stops reading.
 */
export function streamCsvRowsLenient(path: string, onRow: (row: CsvRow) => boolean | void): Promise<CsvRead> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    const input = createReadStream(path, { highWaterMark: 1 << 20 });
    input.on('data', (chunk) => {
      bytes += (chunk as Buffer).length;
    });
    const parser = parse({ headers: false, ignoreEmpty: false, trim: false });
    let line = 1;
    let first = true;
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      input.destroy();
      parser.destroy();
      reject(err);
    };
    input.on('error', fail);
    parser.on('error', fail);
    parser.on('data', (cells: string[]) => {
      if (failed) return;
      if (first && cells.length > 0 && cells[0].charCodeAt(0) === 0xfeff) cells[0] = cells[0].slice(1);
      first = false;
      const start = line;
      line += 1;
      for (const cell of cells) {
        if (cell.length > 0 && cell.indexOf('\n') !== -1) line += cell.split('\n').length - 1;
      }
      // A blank line parses as one empty cell: skip it but keep counting lines.
      if (cells.length === 1 && cells[0] === '') return;
      try {
        if (onRow({ line: start, cells }) === false) {
          failed = true;
          input.destroy();
          parser.destroy();
          resolve({ bytes });
        }
      } catch (err) {
        fail(err as Error);
      }
    });
    parser.on('end', () => {
      if (!failed) resolve({ bytes });
    });
    input.pipe(parser);
  });
}
