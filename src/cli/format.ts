/** Tables in CLI output (sizes and counts: units/readable.ts). */
export function table(rows: (string | number)[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, String(cell).length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (typeof cell === 'number' ? String(cell).padStart(widths[i]) : String(cell).padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
