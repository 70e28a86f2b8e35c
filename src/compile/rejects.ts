import { writeFileSync } from 'node:fs';
import { csvField } from '../raw/csv-writer.js';
import type { RejectedRow } from './raw-file.js';

/** rejects.csv: every row dropped by --skip-invalid, with where, why and the row itself. */
export function writeRejects(path: string, rejected: readonly RejectedRow[]): void {
  const lines = ['file,line,column,code,reason,row'];
  for (const { issue, cells } of rejected) {
    const row = cells.map((c) => csvField(c)).join(',');
    lines.push([issue.file, issue.line, issue.column ?? '', issue.code, issue.message, row].map((v) => csvField(v)).join(','));
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
}
