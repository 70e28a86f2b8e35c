import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { CsvRowReader, touchedAt } from '../../raw/csv-row-reader.js';

/*
 * A raw CSV file the stage wrote in id order, with the rows of some ids replaced, as bytes: the
 * rows of every id not touched are copied as they lie (the same writer wrote them from the same
 * records, so they are the bytes a full rewrite would give), the touched ids' old rows are left
 * out and their new rows put in their place. An import applied to a previous one (--into) thus
 * reads and writes the catalog's files without parsing a cell of the rows it leaves alone.
 */

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
