import { closeSync, openSync, readSync } from 'node:fs';

const LF = 10;
const QUOTE = 34;
const COMMA = 44;
const BLOCK = 1 << 20;

/**
 * Rows of a CSV file one at a time, as bytes: `row` holds the current row's bytes at
 * [start, end) (no line feed) and its first cell ends at `keyEnd` (files whose first column is an
 * id, never quoted, are read by it: the streamed importers' files). Line feeds inside quotes stay
 * in their row; `line` is the line the row starts on.
 */
export class CsvRowReader {
  row: Buffer = Buffer.alloc(0);
  start = 0;
  end = 0;
  keyEnd = 0;
  /** Whether the current row ends with a line feed (the file's last row may not): it lies at `end`. */
  hasLineFeed = true;
  /** Called before the block's bytes move (positions of rows read so far become invalid). */
  beforeRefill: () => void = () => undefined;
  private readonly fd: number;
  private block = Buffer.allocUnsafe(BLOCK);
  private filled = 0;
  private at = 0;
  private eof = false;
  /** The first quote at or after `quoteFrom` in the block (-1: none up to `filled`). */
  private quoteAt = -1;
  private quoteFrom = Number.MAX_SAFE_INTEGER;
  /** The line the row at `at` starts on, and the line feeds inside quotes of the row rowEnd found. */
  private nextLine = 1;
  private quotedLines = 0;
  /** The line the current row starts on. */
  line = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'r');
  }

  /** Moves to the next row; false at the end of the file. */
  next(): boolean {
    for (;;) {
      const end = this.rowEnd();
      if (end >= 0) {
        this.row = this.block;
        this.start = this.at;
        this.end = end;
        const comma = this.block.indexOf(COMMA, this.at);
        this.keyEnd = comma < 0 || comma > end ? end : comma;
        this.hasLineFeed = true;
        this.at = end + 1;
        this.line = this.nextLine;
        this.nextLine += 1 + this.quotedLines;
        if (end === this.start) continue;
        return true;
      }
      if (this.eof) {
        if (this.at < this.filled) {
          // A last row without a line feed.
          this.row = this.block;
          this.start = this.at;
          this.end = this.filled;
          const comma = this.block.indexOf(COMMA, this.at);
          this.keyEnd = comma < 0 || comma > this.filled ? this.filled : comma;
          this.hasLineFeed = false;
          this.at = this.filled;
          this.line = this.nextLine;
          return true;
        }
        return false;
      }
      this.fill();
    }
  }

  close(): void {
    closeSync(this.fd);
  }

  /** Where the row at `at` ends (its line feed outside quotes), or -1 when the block holds no whole row. */
  private rowEnd(): number {
    let from = this.at;
    let quotes = 0;
    this.quotedLines = 0;
    for (;;) {
      const lf = this.block.indexOf(LF, from);
      if (lf < 0 || lf >= this.filled) return -1;
      for (let q = this.quote(from); q >= 0 && q < lf; q = this.quote(q + 1)) quotes++;
      if ((quotes & 1) === 0) return lf;
      this.quotedLines++;
      from = lf + 1;
    }
  }

  /** The first quote at or after `from` within the filled block, or -1; searched once per stretch without quotes. */
  private quote(from: number): number {
    if (from < this.quoteFrom || (this.quoteAt >= 0 && this.quoteAt < from)) {
      const q = this.block.indexOf(QUOTE, from);
      this.quoteAt = q >= this.filled ? -1 : q;
      this.quoteFrom = from;
    }
    return this.quoteAt;
  }

  private fill(): void {
    this.beforeRefill();
    this.quoteFrom = Number.MAX_SAFE_INTEGER;
    const rest = this.filled - this.at;
    const target = rest * 2 > this.block.length ? Buffer.allocUnsafe(this.block.length * 2) : this.block;
    this.block.copy(target, 0, this.at, this.filled);
    this.block = target;
    this.filled = rest;
    this.at = 0;
    const read = readSync(this.fd, this.block, this.filled, this.block.length - this.filled, null);
    if (read === 0) this.eof = true;
    this.filled += read;
  }
}

/**
 * Whether the id at `buffer[start, end)` is among `touched` (sorted as bytes), moving `cursor.i`
 * forward: calls come in increasing id order. One comparison per call while ids are not touched.
 */
export function touchedAt(touched: readonly Buffer[], cursor: { i: number }, buffer: Buffer, start: number, end: number): boolean {
  let order = -1;
  while (cursor.i < touched.length && (order = compareId(touched[cursor.i], buffer, start, end)) < 0) cursor.i++;
  return cursor.i < touched.length && order === 0;
}

/** `id` against `buffer[start, end)` as bytes, in JavaScript: ids are short, and a native call per row cost more than the loop. */
function compareId(id: Buffer, buffer: Buffer, start: number, end: number): number {
  const length = end - start;
  const common = id.length < length ? id.length : length;
  for (let k = 0; k < common; k++) {
    const d = id[k] - buffer[start + k];
    if (d !== 0) return d;
  }
  return id.length - length;
}

/**
 * The rows of a file in order of its first column whose first cell is one of `owners` (sorted as
 * bytes), in one pass that cuts no other cell and stops after the last owner's rows; `onHeader`
 * gets the header's cells first.
 */
export function rowsOfOwners(path: string, owners: readonly Buffer[], onHeader: (header: string[]) => void, onRow: (reader: CsvRowReader) => void): void {
  const reader = new CsvRowReader(path);
  try {
    if (!reader.next()) return;
    const header = reader.row
      .toString('utf8', reader.start, reader.end)
      .replace(/^\uFEFF/, '')
      .split(',')
      .map((cell) => cell.trim());
    onHeader(header);
    const cursor = { i: 0 };
    while (cursor.i < owners.length && reader.next()) if (touchedAt(owners, cursor, reader.row, reader.start, reader.keyEnd)) onRow(reader);
  } finally {
    reader.close();
  }
}
