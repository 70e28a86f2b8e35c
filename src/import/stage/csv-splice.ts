import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync, writeSync } from 'node:fs';

/*
 * A raw CSV file the stage wrote in id order, with the rows of some ids replaced, as bytes: the
 * rows of every id not touched are copied as they lie (the same writer wrote them from the same
 * records, so they are the bytes a full rewrite would give), the touched ids' old rows are left
 * out and their new rows put in their place. An import applied to a previous one (--into) thus
 * reads and writes the catalog's files without parsing a cell of the rows it leaves alone.
 */

const LF = 10;
const QUOTE = 34;
const COMMA = 44;
const BLOCK = 1 << 20;

/** What a spliced file holds, as the import state records it. */
export interface SplicedFile {
  readonly size: number;
  readonly sha256: string;
  /** Rows after the header. */
  readonly rows: number;
  /** Rows after the header in the file spliced into. */
  readonly oldRows: number;
}

/**
 * Rows of a CSV file one at a time: `row` holds the current row's bytes at [start, end) (no line
 * feed) and its first cell ends at `keyEnd` (the stage's key columns come first and are ids,
 * never quoted). Line feeds inside quotes stay in their row.
 */
export class CsvRowReader {
  row: Buffer = Buffer.alloc(0);
  start = 0;
  end = 0;
  keyEnd = 0;
  /** Whether the current row ends with a line feed (the file's last row may not): it lies at `end`. */
  hasLineFeed = true;
  done = false;
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
          return true;
        }
        this.done = true;
        return false;
      }
      this.fill();
    }
  }

  /** The key of the current row. */
  key(): Buffer {
    return this.row.subarray(this.start, this.keyEnd);
  }

  close(): void {
    closeSync(this.fd);
  }

  /** Where the row at `at` ends (its line feed outside quotes), or -1 when the block holds no whole row. */
  private rowEnd(): number {
    let from = this.at;
    let quotes = 0;
    for (;;) {
      const lf = this.block.indexOf(LF, from);
      if (lf < 0 || lf >= this.filled) return -1;
      for (let q = this.quote(from); q >= 0 && q < lf; q = this.quote(q + 1)) quotes++;
      if ((quotes & 1) === 0) return lf;
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

/** Writes bytes through one block, hashing and counting them. */
class HashedWriter {
  private readonly fd: number;
  private readonly block = Buffer.allocUnsafe(BLOCK);
  private filled = 0;
  private readonly hash = createHash('sha256');
  size = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  write(source: Buffer, start: number, end: number): void {
    if (this.filled + (end - start) + 1 > this.block.length) this.flush();
    if (end - start + 1 > this.block.length) {
      this.hash.update(source.subarray(start, end));
      writeSync(this.fd, source, start, end - start);
      this.size += end - start;
      return;
    }
    this.filled += source.copy(this.block, this.filled, start, end);
  }

  /** A row and its line feed. */
  line(source: Buffer, start: number, end: number): void {
    this.write(source, start, end);
    this.write(LINE_FEED, 0, 1);
  }

  finish(): string {
    this.flush();
    closeSync(this.fd);
    return this.hash.digest('hex');
  }

  private flush(): void {
    if (this.filled === 0) return;
    const bytes = this.block.subarray(0, this.filled);
    this.hash.update(bytes);
    let at = 0;
    while (at < this.filled) at += writeSync(this.fd, this.block, at, this.filled - at);
    this.size += this.filled;
    this.filled = 0;
  }
}

const LINE_FEED = Buffer.from('\n');

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
 * Writes `outPath`: the header and rows of `oldPath` whose key is not in `touched` (ids sorted as
 * bytes), merged in key order with every row of `newPath` (a file of the same header holding the
 * touched ids' rows now, in key order). A touched id's new rows go where its old rows were.
 */
export function spliceCsv(oldPath: string, newPath: string, touched: readonly Buffer[], outPath: string): SplicedFile {
  const out = new HashedWriter(outPath);
  const fresh = new CsvRowReader(newPath);
  const old = existsSync(oldPath) ? new CsvRowReader(oldPath) : null;
  let rows = 0;
  let oldRows = 0;
  let sha256: string;
  try {
    // The header: the new file's (the same columns: the same stage wrote both).
    if (fresh.next()) out.line(fresh.row, fresh.start, fresh.end);
    let hasFresh = fresh.next();
    if (old?.next()) {
      // Untouched rows side by side in the read block are written as one span.
      const span = new RowSpan(out, old);
      const cursor = { i: 0 };
      while (old.next()) {
        oldRows++;
        while (hasFresh && fresh.row.compare(old.row, old.start, old.keyEnd, fresh.start, fresh.keyEnd) < 0) {
          span.flush();
          out.line(fresh.row, fresh.start, fresh.end);
          rows++;
          hasFresh = fresh.next();
        }
        if (touchedAt(touched, cursor, old.row, old.start, old.keyEnd)) continue;
        span.add();
        rows++;
      }
      span.flush();
    }
    for (; hasFresh; hasFresh = fresh.next()) {
      out.line(fresh.row, fresh.start, fresh.end);
      rows++;
    }
  } finally {
    fresh.close();
    old?.close();
    sha256 = out.finish();
  }
  return { size: out.size, rows, oldRows, sha256 };
}

/** Rows of a reader's block waiting to be written as one span; written before the block's bytes move. */
class RowSpan {
  private start = 0;
  private end = 0;

  constructor(
    private readonly out: HashedWriter,
    private readonly reader: CsvRowReader,
  ) {
    reader.beforeRefill = () => this.flush();
  }

  /** The reader's current row (with its line feed). */
  add(): void {
    const r = this.reader;
    if (!r.hasLineFeed) {
      this.flush();
      this.out.line(r.row, r.start, r.end);
      return;
    }
    if (this.end !== r.start || this.end === this.start) {
      this.flush();
      this.start = r.start;
    }
    this.end = r.end + 1;
  }

  flush(): void {
    if (this.end > this.start) this.out.write(this.reader.row, this.start, this.end);
    this.start = this.end = 0;
  }
}
