import { RAW_FILE_BY_NAME, type RawFileName } from '../../raw/schema.js';
import type { RawIssue } from '../compile-error.js';
import { IssueLog, readRawFile, type ParsedRow } from '../raw-file.js';

/** An issue found after its file was read: its message may need the row's own values. */
export interface DeferredIssue {
  readonly code: RawIssue['code'];
  readonly column?: string;
  readonly message: string | ((row: ParsedRow) => string);
}

/** One deferred issue: file, line, issue. */
export type DeferredEntry = readonly [RawFileName, number, DeferredIssue];

/**
 * Rows rejected once the rows were sorted (duplicates, references, conflicts). The report and
 * rejects.csv want each row's cells and values, which the first pass did not keep; `commit`
 * reads the files that have such rows once more and logs them.
 */
export class DeferredIssues {
  private readonly byFile = new Map<RawFileName, Map<number, DeferredIssue>>();

  get size(): number {
    let n = 0;
    for (const lines of this.byFile.values()) n += lines.size;
    return n;
  }

  /** Rejects the row at `line` (the first issue of a row wins). */
  add(file: RawFileName, line: number, issue: DeferredIssue): void {
    let lines = this.byFile.get(file);
    if (!lines) this.byFile.set(file, (lines = new Map()));
    if (!lines.has(line)) lines.set(line, issue);
  }

  /** Every issue, file by file in the order first added, rows in the order added. */
  entries(): DeferredEntry[] {
    return [...this.byFile].flatMap(([file, lines]) => [...lines].map(([line, issue]): DeferredEntry => [file, line, issue]));
  }

  /** Adds issues listed by `entries` (of another thread's DeferredIssues), in their order. */
  addAll(entries: readonly DeferredEntry[]): void {
    for (const [file, line, issue] of entries) this.add(file, line, issue);
  }

  has(file: RawFileName, line: number): boolean {
    return this.byFile.get(file)?.has(line) ?? false;
  }

  async commit(dir: string, log: IssueLog): Promise<void> {
    for (const [file, lines] of this.byFile) {
      const scratch = new IssueLog(0);
      await readRawFile(dir, RAW_FILE_BY_NAME.get(file)!, scratch, (row, line, cells) => {
        const issue = lines.get(line);
        if (!issue) return;
        const message = typeof issue.message === 'string' ? issue.message : issue.message(row);
        log.reject({ code: issue.code, column: issue.column, message, file: `${file}.csv`, line }, [...cells]);
      });
    }
    this.byFile.clear();
  }
}
