import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CsvParser } from '../../raw/csv-parser.js';
import { readAhead } from '../../raw/read-ahead.js';
import type { RawFileName } from '../../raw/schema.js';

/** One row of a raw file, cells by column name. */
export type RawRow = Readonly<Record<string, string>>;

export interface ScannedFile {
  /** The header, as the file spells it. */
  readonly header: string[];
  readonly rows: number;
  readonly bytes: number;
  readonly sha256: string;
}

/**
 * Reads one raw file of `rawDir` row by row (cells by header name), hashing it as the compile
 * does (raw-file.ts), so a delta compile names the same sources as a full compile of the same
 * files. Null when the file is absent.
 */
export async function scanRawFile(
  rawDir: string,
  file: RawFileName,
  onRow: (row: RawRow, cells: string[], header: readonly string[], line: number) => void,
): Promise<ScannedFile | null> {
  const path = join(rawDir, `${file}.csv`);
  if (!existsSync(path)) return null;
  const hash = createHash('sha256');
  let header: string[] | null = null;
  let rows = 0;
  const parser = new CsvParser((cells, line) => {
    if (!header) {
      header = cells.map((c) => c.trim());
      return;
    }
    if (cells.length === 1 && cells[0] === '') return;
    rows++;
    const row: Record<string, string> = {};
    for (let i = 0; i < header.length; i++) row[header[i]] = cells[i] ?? '';
    onRow(row, cells, header, line);
  });
  const bytes = await readAhead(path, (chunk) => {
    hash.update(chunk);
    parser.push(chunk);
  });
  parser.end();
  return { header: header ?? [], rows, bytes, sha256: hash.digest('hex') };
}
