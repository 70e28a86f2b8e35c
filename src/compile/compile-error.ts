/**
 * Errors of the compiler. A RawIssue is one problem with the raw data, located by file, line
 * and column; a CompileError carries every issue found (up to a cap) so that one run reports
 * them all.
 */
export type RawIssueCode =
  | 'E_RAW_FILE' // a required file is missing or unreadable, or a CSV is malformed
  | 'E_RAW_HEADER' // a required column is missing, or a column is unknown or repeated
  | 'E_RAW_ROW' // a cell is missing or not of its kind
  | 'E_RAW_DUPLICATE' // an id (or catalog id) is used twice
  | 'E_RAW_REF' // a reference names a row that does not exist (or was rejected)
  | 'E_RAW_CONFLICT'; // rows contradict each other (two songs at one track position, ...)

export interface RawIssue {
  readonly code: RawIssueCode;
  readonly file: string;
  /** 1-based line of the row's first line (the header is line 1); 0 for whole-file issues. */
  readonly line: number;
  readonly column?: string;
  readonly message: string;
}

export function formatIssue(issue: RawIssue): string {
  const where = issue.line > 0 ? `${issue.file}:${issue.line}` : issue.file;
  const column = issue.column ? ` column ${issue.column}:` : '';
  return `${where}:${column} ${issue.message} [${issue.code}]`;
}

export class CompileError extends Error {
  readonly code = 'E_COMPILE';
  constructor(
    readonly issues: readonly RawIssue[],
    readonly totalIssues: number,
  ) {
    const shown = issues.map(formatIssue).join('\n  ');
    const more = totalIssues > issues.length ? `\n  ... and ${totalIssues - issues.length} more` : '';
    super(`${totalIssues} error(s) in the raw catalog; nothing was published:\n  ${shown}${more}`);
    this.name = 'CompileError';
  }
}
