/** Small text helpers for CLI output. */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

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

export const count = (n: number): string => n.toLocaleString('en-US');
