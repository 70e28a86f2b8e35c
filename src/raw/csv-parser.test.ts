import { Readable } from 'node:stream';
import fc from 'fast-check';
import { parse } from 'fast-csv';
import { describe, expect, it } from 'vitest';
import { CsvParser, CsvSyntaxError } from './csv-parser.js';
import { csvField } from './csv-writer.js';

interface Parsed {
  cells: string[];
  line: number;
}

function parseAll(input: Buffer, chunkSizes: number[] = [input.length || 1]): Parsed[] {
  const rows: Parsed[] = [];
  const parser = new CsvParser((cells, line) => {
    rows.push({ cells, line });
  });
  let pos = 0;
  let k = 0;
  while (pos < input.length) {
    const size = Math.max(1, chunkSizes[k++ % chunkSizes.length]);
    parser.push(input.subarray(pos, pos + size));
    pos += size;
  }
  parser.end();
  return rows;
}

function parseWithFastCsv(input: Buffer): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const rows: string[][] = [];
    Readable.from([input])
      .pipe(parse({ headers: false, ignoreEmpty: false, trim: false }))
      .on('data', (cells: string[]) => rows.push(cells))
      .on('error', reject)
      .on('end', () => resolve(rows.filter((r) => !(r.length === 1 && r[0] === ''))));
  });
}

const cell = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom('', ' ', '"', '""', ',', '\n', '\r\n', 'a"b', '東京', 'Ханна', 'Đạt', '🎵'),
);
const table = fc.array(fc.array(cell, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 8 });
const eol = fc.constantFrom('\n', '\r\n');

function render(rows: string[][], newline: string): string {
  return rows.map((r) => r.map(csvField).join(',')).join(newline) + newline;
}

describe('CsvParser', () => {
  it('round-trips anything our writer writes, however the input is chunked', () => {
    fc.assert(
      fc.property(table, eol, fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 4 }), (rows, newline, chunks) => {
        const parsed = parseAll(Buffer.from(render(rows, newline)), chunks).map((r) => r.cells);
        const expected = rows.filter((r) => !(r.length === 1 && r[0] === ''));
        expect(parsed).toEqual(expected);
      }),
    );
  });

  it('agrees with fast-csv on every table', async () => {
    await fc.assert(
      fc.asyncProperty(table, eol, async (rows, newline) => {
        const input = Buffer.from(render(rows, newline));
        expect(parseAll(input).map((r) => r.cells)).toEqual(await parseWithFastCsv(input));
      }),
      { numRuns: 200 },
    );
  });

  it('reports the line each row starts on, counting line breaks inside quotes and blank lines', () => {
    const rows = parseAll(Buffer.from('id,name\n1,"two\nlines"\n\n2,x\r\n3,"a\r\nb"\n4,y'), [3]);
    expect(rows).toEqual([
      { cells: ['id', 'name'], line: 1 },
      { cells: ['1', 'two\nlines'], line: 2 },
      { cells: ['2', 'x'], line: 5 },
      { cells: ['3', 'a\r\nb'], line: 6 },
      { cells: ['4', 'y'], line: 8 },
    ]);
  });

  it('drops a byte order mark, even one split across chunks', () => {
    const input = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('id,name\n1,x\n')]);
    expect(parseAll(input, [1]).map((r) => r.cells)).toEqual([
      ['id', 'name'],
      ['1', 'x'],
    ]);
  });

  it('keeps a trailing empty cell and a missing final line break', () => {
    expect(parseAll(Buffer.from('a,\nb,c')).map((r) => r.cells)).toEqual([
      ['a', ''],
      ['b', 'c'],
    ]);
  });

  it.each([
    ['id,name\n1,"open\n', 'line 2: quoted field is never closed'],
    ['id,name\n1,"x"y\n', 'line 2: unexpected text after a closing quote'],
    ['id,name\n\n1,a"b\n', 'line 3: a quote inside an unquoted field'],
  ])('rejects malformed quoting with the line: %j', (input, message) => {
    expect(() => parseAll(Buffer.from(input))).toThrow(CsvSyntaxError);
    expect(() => parseAll(Buffer.from(input), [2])).toThrow(message);
  });

  it('stops when the callback returns false', () => {
    const seen: string[] = [];
    const parser = new CsvParser((cells) => {
      seen.push(cells[0]);
      return cells[0] !== 'b';
    });
    parser.push(Buffer.from('a\nb\nc\nd\n'));
    parser.end();
    expect(seen).toEqual(['a', 'b']);
    expect(parser.isStopped).toBe(true);
  });
});
