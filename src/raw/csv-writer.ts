import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { columnsOf, LIST_SEPARATOR, type RawFileName } from './schema.js';

export type RawCell = string | number | boolean | null | undefined | readonly string[];
export type RawRow = Readonly<Record<string, RawCell>>;

const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV field per RFC 4180: quoted only when it holds a quote, comma or line break. */
export function csvField(value: RawCell): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (Array.isArray(value)) text = value.join(LIST_SEPARATOR);
  else if (typeof value === 'boolean') text = value ? 'true' : 'false';
  else text = String(value);
  if (text.length > 0 && (NEEDS_QUOTES.test(text) || text.trim() !== text)) {
    return `"${text.replace(/"/g, '""')}"`;
  }
  return text;
}

/**
 * Writes one raw CSV file (header row first, columns in the documented order) with a buffered,
 * synchronous writer: the generator writes tens of millions of rows and gains nothing from
 * stream back-pressure here.
 */
export class RawCsvWriter {
  readonly columns: readonly string[];
  readonly path: string;
  private readonly fd: number;
  /** Lines as UTF-8, written out when full: no string outlives its row (a million buffered lines would be promoted by the GC and linger). */
  private readonly block = Buffer.allocUnsafe(1 << 20);
  private filled = 0;
  rows = 0;

  /** With `append`, rows go after those already in the file (whose header must be the same). */
  constructor(
    dir: string,
    readonly file: RawFileName,
    columns: readonly string[] = columnsOf(file),
    append = false,
  ) {
    mkdirSync(dir, { recursive: true });
    this.columns = columns;
    this.path = join(dir, `${file}.csv`);
    const header = columns.join(',');
    if (append && existsSync(this.path)) {
      const firstLine = readFileSync(this.path, 'utf8')
        .split(/\r?\n/, 1)[0]
        .replace(/^\uFEFF/, '');
      if (firstLine !== header) throw new Error(`${this.path}: header ${JSON.stringify(firstLine)} differs from ${JSON.stringify(header)}; cannot append`);
      this.fd = openSync(this.path, 'a');
    } else {
      this.fd = openSync(this.path, 'w');
      this.push(header);
    }
  }

  write(row: RawRow): void {
    let line = '';
    for (let i = 0; i < this.columns.length; i++) {
      if (i > 0) line += ',';
      line += csvField(row[this.columns[i]]);
    }
    this.push(line);
    this.rows++;
  }

  private push(line: string): void {
    const most = line.length * 3 + 1;
    if (this.filled + most > this.block.length) this.flush();
    if (most > this.block.length) {
      writeSync(this.fd, `${line}\n`);
      return;
    }
    this.filled += this.block.write(line, this.filled, 'utf8');
    this.block[this.filled++] = 10;
  }

  private flush(): void {
    let at = 0;
    while (at < this.filled) at += writeSync(this.fd, this.block, at, this.filled - at);
    this.filled = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}
