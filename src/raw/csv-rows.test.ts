import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { streamCsvRows, type CsvRow } from './csv-rows.js';

/** A CSV of `rows` rows after its header, every tenth with a quoted cell spanning two lines. */
function writeCsv(rows: number): { path: string; bytes: number } {
  const lines = ['id,name,note'];
  for (let i = 1; i <= rows; i++) lines.push(i % 10 === 0 ? `s${i},"Song, ${i}","two\nlines ${'x'.repeat(i % 97)}"` : `s${i},Song ${i},${'n'.repeat(i % 131)}`);
  const text = `${lines.join('\n')}\n`;
  const path = join(mkdtempSync(join(tmpdir(), 'omm-csv-rows-')), 'songs.csv');
  writeFileSync(path, text);
  return { path, bytes: Buffer.byteLength(text) };
}

describe('streamCsvRows', () => {
  it('reads every row of a file of several chunks, with its line, and counts every byte', async () => {
    const { path, bytes } = writeCsv(40_000); // about 3.5 MiB: rows cross the 1 MiB chunk boundaries
    expect(bytes).toBeGreaterThan(3 * 2 ** 20);
    const rows: CsvRow[] = [];
    const read = await streamCsvRows(path, (row) => void rows.push(row));
    expect(read.bytes).toBe(bytes);
    expect(rows.length).toBe(40_001);
    expect(rows[0].cells).toEqual(['id', 'name', 'note']);
    // Row i starts on line 1 + i + the two-line rows before it.
    for (const i of [1, 9, 10, 11, 12_345, 40_000]) {
      const row = rows[i];
      expect(row.cells[0]).toBe(`s${i}`);
      expect(row.line).toBe(1 + i + Math.floor((i - 1) / 10));
      expect(row.cells[2]).toBe(i % 10 === 0 ? `two\nlines ${'x'.repeat(i % 97)}` : 'n'.repeat(i % 131));
    }
  });

  it('stops when the callback says so, counting only the chunks it parsed, and the file can be read again', async () => {
    const { path, bytes } = writeCsv(40_000);
    let seen = 0;
    const read = await streamCsvRows(path, () => ++seen < 5);
    expect(seen).toBe(5);
    expect(read.bytes).toBe(2 ** 20); // the first chunk only
    expect(read.bytes).toBeLessThan(bytes);
    expect((await streamCsvRows(path, () => undefined)).bytes).toBe(bytes);
  });

  it('passes on an error thrown by the callback', async () => {
    const { path } = writeCsv(30_000);
    await expect(
      streamCsvRows(path, (row) => {
        if (row.line > 20_000) throw new Error('stop here');
      }),
    ).rejects.toThrow('stop here');
  });
});
