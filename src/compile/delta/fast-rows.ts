import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CsvParser } from '../../raw/csv-parser.js';
import { csvField } from '../../raw/csv-writer.js';
import type { RawFileName } from '../../raw/schema.js';
import { scanRawFile } from './raw-rows.js';
import { readAhead } from '../../raw/read-ahead.js';

const LF = 10;
const CR = 13;
const QUOTE = 34;
const COMMA = 44;

export interface ScannedFile {
  /** The header, as the file spells it. */
  readonly header: string[];
  readonly rows: number;
  readonly bytes: number;
  readonly sha256: string;
}

/** Called per row with the cells of the asked columns, the row's bytes (valid during the call, no line break) and the line it starts on. */
export type KeyedRow = (keys: string[], row: Buffer, line: number) => void;

/** A file whose rows this scanner does not split as the CSV parser does (a lone CR line break): read it with the parser. */
export class NeedsParser extends Error {}

/**
 * Reads a raw CSV file row by row without parsing every cell: rows are split at line feeds
 * outside quotes (found with indexOf, so a file of plain rows is split at the speed of memchr),
 * and only the asked columns of a row are cut out (a row with a quote before them is parsed).
 * The file is hashed as the compile hashes it (raw-file.ts) and its rows counted as the compile
 * counts them (blank lines are no rows). Null when the file is absent. A lone CR line break
 * throws NeedsParser.
 */
export async function scanKeyedRows(
  path: string,
  columns: readonly string[],
  onRow: KeyedRow,
  onHeader: (header: string[]) => void = () => undefined,
): Promise<ScannedFile | null> {
  if (!existsSync(path)) return null;
  const hash = createHash('sha256');
  const state = { header: null as string[] | null, positions: [] as number[], last: -1, rows: 0, line: 1, onHeader };
  let carry: Buffer = Buffer.alloc(0);
  const bytes = await readAhead(path, (chunk) => {
    hash.update(chunk);
    for (let cr = chunk.indexOf(CR); cr >= 0 && cr + 1 < chunk.length; cr = chunk.indexOf(CR, cr + 1)) if (chunk[cr + 1] !== LF) throw new NeedsParser();
    const buf = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const used = splitRows(buf, false, state, columns, onRow);
    carry = Buffer.from(buf.subarray(used));
  });
  if (carry.length > 0) splitRows(carry, true, state, columns, onRow);
  return { header: state.header ?? [], rows: state.rows, bytes, sha256: hash.digest('hex') };
}

/**
 * `scanKeyedRows` over a raw catalog's file, with the CSV parser where the file needs it (a lone
 * CR line break): then `onRestart` is told first (rows handed over so far are to be forgotten)
 * and every row is handed over again, its cells written back as CSV.
 */
export async function scanRawKeyed(
  rawDir: string,
  file: RawFileName,
  columns: readonly string[],
  onRow: (keys: string[], row: Buffer, line: number, header: readonly string[]) => void,
  onRestart: () => void,
): Promise<ScannedFile | null> {
  let header: string[] = [];
  try {
    return await scanKeyedRows(
      join(rawDir, `${file}.csv`),
      columns,
      (keys, row, line) => onRow(keys, row, line, header),
      (h) => (header = h),
    );
  } catch (err) {
    if (!(err instanceof NeedsParser)) throw err;
  }
  onRestart();
  return scanRawFile(rawDir, file, (row, cells, h, line) =>
    onRow(
      columns.map((c) => row[c] ?? ''),
      Buffer.from(cells.map((c) => csvField(c)).join(',')),
      line,
      h,
    ),
  );
}

type ScanState = { header: string[] | null; positions: number[]; last: number; rows: number; line: number; onHeader: (header: string[]) => void };

/** Hands over every whole row of `buf` (the last one too when `end`); returns the bytes used. */
function splitRows(buf: Buffer, end: boolean, state: ScanState, columns: readonly string[], onRow: KeyedRow): number {
  let start = 0;
  // The next quote at or after a position, remembered: searched again only once passed, so a
  // buffer without quotes is searched for them once, not once per row.
  let quote = -1;
  const quoteFrom = (p: number) => {
    if (quote !== buf.length && quote < p) {
      quote = buf.indexOf(QUOTE, p);
      if (quote < 0) quote = buf.length;
    }
    return quote;
  };
  while (start < buf.length) {
    let lines = 1;
    let from = start;
    let inQuote = false;
    let stop = -1;
    for (;;) {
      const lf = buf.indexOf(LF, from);
      const limit = lf < 0 ? buf.length : lf;
      for (let q = quoteFrom(from); q < limit; q = quoteFrom(q + 1)) inQuote = !inQuote;
      if (lf < 0) break;
      if (!inQuote) {
        stop = lf;
        break;
      }
      lines++;
      from = lf + 1;
    }
    if (stop < 0) {
      if (!end) return start;
      stop = buf.length;
    }
    let rowEnd = stop;
    if (rowEnd > start && buf[rowEnd - 1] === CR) rowEnd--;
    handleRow(buf.subarray(start, rowEnd), state, columns, onRow);
    state.line += lines;
    start = stop + 1;
  }
  return buf.length;
}

function handleRow(row: Buffer, state: ScanState, columns: readonly string[], onRow: KeyedRow): void {
  if (!state.header) {
    let cells = parseCells(row);
    if (cells.length > 0 && cells[0].charCodeAt(0) === 0xfeff) cells = [cells[0].slice(1), ...cells.slice(1)];
    state.header = cells.map((c) => c.trim());
    state.positions = columns.map((c) => state.header!.indexOf(c));
    state.last = Math.max(-1, ...state.positions);
    state.onHeader(state.header);
    return;
  }
  if (row.length === 0) return;
  state.rows++;
  onRow(keysOf(row, state.positions, state.last), row, state.line);
}

/** The cells at `positions` (empty for a column the file lacks): the fields up to the last asked cut at commas, the row parsed when one of them is quoted. */
export function keysOf(row: Buffer, positions: readonly number[], last: number): string[] {
  const out = new Array<string>(positions.length).fill('');
  let at = 0;
  for (let i = 0; i <= last; i++) {
    if (at > row.length) break;
    if (row[at] === QUOTE) {
      const cells = parseCells(row);
      return positions.map((p) => (p < 0 ? '' : (cells[p] ?? '')));
    }
    const comma = row.indexOf(COMMA, at);
    const end = comma < 0 ? row.length : comma;
    for (let k = 0; k < positions.length; k++) if (positions[k] === i) out[k] = row.toString('utf8', at, end);
    at = end + 1;
  }
  return out;
}

function parseCells(row: Buffer): string[] {
  let cells: string[] = [];
  const parser = new CsvParser((c) => {
    cells = c;
  });
  parser.push(row);
  parser.end();
  return cells;
}
