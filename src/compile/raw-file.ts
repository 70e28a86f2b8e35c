import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RAW_FILES, type RawFileName, type RawFileSpec } from '../raw/schema.js';
import type { RawIssue, RawIssueCode } from './compile-error.js';
import { streamCsvRows } from '../raw/csv-rows.js';
import { readAhead } from '../raw/read-ahead.js';
import { CellProblem, validateCell, type CellValue } from '../raw/validate-cell.js';

/** A validated row: column name to value; absent (empty) optional cells are undefined. */
export type ParsedRow = Record<string, CellValue | undefined>;

export interface RejectedRow {
  readonly issue: RawIssue;
  readonly cells: readonly string[];
}

const FILE_RANK = new Map(RAW_FILES.map((f, i) => [`${f.file}.csv`, i]));
const byPlace = (a: RawIssue, b: RawIssue): number => (FILE_RANK.get(a.file) ?? 99) - (FILE_RANK.get(b.file) ?? 99) || a.line - b.line;

/**
 * Collects issues across the whole compile: every rejected row (for rejects.csv) and, per file,
 * the lines rejected (so a second pass over the file skips exactly the same rows). Issues are
 * found in two waves (a cell while reading, a duplicate or a reference once the rows are sorted),
 * so the report lists them by file and line, the first `cap` of them.
 */
export class IssueLog {
  private readonly issues: RawIssue[] = [];
  private readonly rows: RejectedRow[] = [];
  private readonly rejectedLines = new Map<string, Set<number>>();
  total = 0;

  constructor(readonly cap = 100) {}

  /** The first `cap` issues by file (in reading order) and line. */
  get shown(): RawIssue[] {
    return [...this.issues].sort(byPlace).slice(0, this.cap);
  }

  /** Every rejected row, by file and line. */
  get rejected(): RejectedRow[] {
    return [...this.rows].sort((a, b) => byPlace(a.issue, b.issue));
  }

  /** A problem with the file as a whole (missing file or column). */
  fileIssue(code: RawIssueCode, file: string, message: string, column?: string): void {
    this.record({ code, file, line: 0, column, message });
  }

  /** Rejects a row: records the issue and remembers the line. */
  reject(issue: RawIssue, cells: readonly string[]): void {
    this.record(issue);
    this.rows.push({ issue, cells });
    let lines = this.rejectedLines.get(issue.file);
    if (!lines) this.rejectedLines.set(issue.file, (lines = new Set()));
    lines.add(issue.line);
  }

  /** What another thread's log holds, to be added to this one with `merge`. */
  exported(): { fileIssues: RawIssue[]; rejected: RejectedRow[] } {
    return { fileIssues: this.issues.filter((i) => i.line === 0), rejected: [...this.rows] };
  }

  /** Adds what another thread's log exported. */
  merge(from: { fileIssues: readonly RawIssue[]; rejected: readonly RejectedRow[] }): void {
    for (const issue of from.fileIssues) this.record(issue);
    for (const row of from.rejected) this.reject(row.issue, row.cells);
  }

  /** How many rows of `file` were rejected. */
  rejectedCount(file: string): number {
    return this.rejectedLines.get(file)?.size ?? 0;
  }

  /** The lines rejected in `file`, ascending: what a second pass on another thread must skip. */
  rejectedLinesOf(file: string): number[] {
    return [...(this.rejectedLines.get(file) ?? [])].sort((a, b) => a - b);
  }

  /** A log for a second pass elsewhere: it knows which lines the first pass rejected, nothing more. */
  static skipping(lines: Readonly<Record<string, readonly number[]>>): IssueLog {
    const log = new IssueLog();
    for (const [file, rejected] of Object.entries(lines)) log.rejectedLines.set(file, new Set(rejected));
    return log;
  }

  isRejected(file: string, line: number): boolean {
    return this.rejectedLines.get(file)?.has(line) ?? false;
  }

  private record(issue: RawIssue): void {
    this.total++;
    this.issues.push(issue);
  }
}

export interface RawFileRead {
  readonly present: boolean;
  rows: number;
  /** Bytes parsed. */
  bytes: number;
}

export interface RawFileDigest {
  readonly bytes: number;
  readonly sha256: string;
}

/**
 * Each present raw file's size and SHA-256, read before any is parsed, so the build id (a hash of
 * them) is known from the start and the first pass can write shards that carry it. The parse
 * checks that it read as many bytes as were hashed (compile.ts).
 */
export async function digestRawFiles(dir: string): Promise<Map<RawFileName, RawFileDigest>> {
  const digests = new Map<RawFileName, RawFileDigest>();
  for (const spec of RAW_FILES) {
    const path = rawFilePath(dir, spec);
    if (!existsSync(path)) continue;
    digests.set(spec.file, await digestFile(path));
  }
  return digests;
}

/** Size and SHA-256 of one file, hashed while its next chunk is read (raw/read-ahead.ts). */
async function digestFile(path: string): Promise<RawFileDigest> {
  const hash = createHash('sha256');
  const bytes = await readAhead(path, (chunk) => void hash.update(chunk));
  return { bytes, sha256: hash.digest('hex') };
}

/**
 * Whether the raw files in `dir` are exactly those a snapshot was compiled from (its manifest's
 * `sources`, named `<file>.csv` as the compile names them): the same set, each with the same
 * SHA-256, hashed in chunks as the compile hashes them.
 */
export async function sameRawFiles(dir: string, sources: readonly { readonly file: string; readonly sha256: string }[]): Promise<boolean> {
  const digests = await digestRawFiles(dir);
  const byCsvName = new Map([...digests].map(([file, digest]) => [`${file}.csv`, digest.sha256]));
  return byCsvName.size === sources.length && sources.every((s) => byCsvName.get(s.file) === s.sha256);
}

/** Row handler: returns nothing to accept the row, or an issue to reject it. */
export type RowHandler = (row: ParsedRow, line: number, cells: readonly string[]) => Omit<RawIssue, 'file' | 'line'> | void;

export function rawFilePath(dir: string, spec: RawFileSpec): string {
  return join(dir, `${spec.file}.csv`);
}

/**
 * Reads one raw file: checks the header against the spec, validates every cell, and hands each
 * valid row to `onRow`. With `skipLines`, rows already rejected in an earlier pass are skipped
 * silently (second pass).
 */
export async function readRawFile(
  dir: string,
  spec: RawFileSpec,
  log: IssueLog,
  onRow: RowHandler,
  options: { secondPass?: boolean; onProgress?: () => void } = {},
): Promise<RawFileRead> {
  const file = `${spec.file}.csv`;
  const path = rawFilePath(dir, spec);
  const result: RawFileRead = { present: existsSync(path), rows: 0, bytes: 0 };
  if (!result.present) {
    if (spec.required && !options.secondPass) log.fileIssue('E_RAW_FILE', file, 'required file is missing');
    return result;
  }
  let columns: (typeof spec.columns)[number][] | null = null;
  let positions: number[] = [];
  let headerLength = 0;
  let headerOk = true;
  try {
    const read = await streamCsvRows(path, ({ line, cells }) => {
      if (!columns) {
        const header = checkHeader(spec, cells, file, options.secondPass ? null : log);
        if (!header) {
          headerOk = false;
          return false;
        }
        columns = header.columns;
        positions = header.positions;
        headerLength = cells.length;
        return;
      }
      result.rows++;
      options.onProgress?.();
      if (options.secondPass && log.isRejected(file, line)) return;
      const row: ParsedRow = {};
      let problem: Omit<RawIssue, 'file' | 'line'> | undefined;
      for (let i = 0; i < columns.length && !problem; i++) {
        const col = columns[i];
        const raw = positions[i] < 0 ? '' : (cells[positions[i]] ?? '');
        if (raw.length === 0 || (raw.charCodeAt(0) <= 32 && raw.trim() === '')) {
          if (col.required) problem = { code: 'E_RAW_ROW', column: col.name, message: 'required value is empty' };
          continue;
        }
        const checked = validateCell(col.kind, raw);
        if (checked instanceof CellProblem) problem = { code: 'E_RAW_ROW', column: col.name, message: checked.message };
        else row[col.name] = checked;
      }
      if (!problem && cells.length !== headerLength) {
        problem = { code: 'E_RAW_ROW', message: `row has ${cells.length} cells; the header has ${headerLength}` };
      }
      problem ??= onRow(row, line, cells) ?? undefined;
      if (problem) {
        if (options.secondPass) throw new Error(`second pass rejected ${file}:${line}, which the first pass accepted`);
        log.reject({ ...problem, file, line }, cells);
      }
    });
    result.bytes = read.bytes;
  } catch (err) {
    if (options.secondPass) throw err;
    log.fileIssue('E_RAW_FILE', file, `cannot be parsed as CSV: ${(err as Error).message}`);
  }
  if (!headerOk) result.bytes = 0;
  return result;
}

function checkHeader(
  spec: RawFileSpec,
  header: string[],
  file: string,
  log: IssueLog | null,
): { columns: (typeof spec.columns)[number][]; positions: number[] } | null {
  let ok = true;
  const seen = new Map<string, number>();
  header.forEach((raw, i) => {
    const name = raw.trim();
    if (seen.has(name)) {
      log?.fileIssue('E_RAW_HEADER', file, `column is repeated (positions ${seen.get(name)! + 1} and ${i + 1})`, name);
      ok = false;
    }
    seen.set(name, i);
    if (!name.startsWith('x_') && !spec.columns.some((c) => c.name === name)) {
      log?.fileIssue('E_RAW_HEADER', file, `unknown column (expected some of: ${spec.columns.map((c) => c.name).join(', ')}; prefix your own with x_)`, name);
      ok = false;
    }
  });
  for (const col of spec.columns) {
    if (col.required && !seen.has(col.name)) {
      log?.fileIssue('E_RAW_HEADER', file, 'required column is missing', col.name);
      ok = false;
    }
  }
  if (!ok) return null;
  return { columns: [...spec.columns], positions: spec.columns.map((c) => seen.get(c.name) ?? -1) };
}
