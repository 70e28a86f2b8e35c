// Appends a row to a table of docs/benchmarks.md: above the table's marker line, which the
// section holds (a bench that records refuses to run on without it).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const doc = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

export function recordRow(marker, row) {
  const text = readFileSync(doc, 'utf8');
  if (!text.includes(marker)) throw new Error(`${doc} has no "${marker}" line`);
  writeFileSync(doc, text.replace(marker, `${row}\n${marker}`));
}
