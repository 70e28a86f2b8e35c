import { describe, expect, it } from 'vitest';
import { ImportError } from '../import-error.js';
import { unitDigest } from '../stage/source-unit.js';
import { readJsonUnits, type JsonUnit } from './json-units.js';
import { splitLines } from './lines.js';

/** `text`'s bytes in chunks of `size`, as a stream would give them. */
async function* chunks(text: string | Buffer, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield new Uint8Array(bytes.subarray(i, i + size));
}

async function units(text: string | Buffer, size = 7, maxDocument?: number): Promise<JsonUnit[]> {
  const out: JsonUnit[] = [];
  for await (const unit of readJsonUnits(chunks(text, size), 'f.json', maxDocument)) out.push(unit);
  return out;
}

async function error(text: string | Buffer, maxDocument?: number): Promise<ImportError> {
  const e = await units(text, 5, maxDocument).then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ImportError);
  return e as ImportError;
}

describe('splitLines', () => {
  it('gives the same lines whatever the chunk size, with and without a last line end', async () => {
    const text = 'ab\r\n\nc\u00e9d\nlast';
    for (let size = 1; size <= text.length + 1; size++) {
      const lines = [];
      for await (const line of splitLines(chunks(text, size), 'f')) lines.push([line.number, line.content.toString(), line.bytes.length]);
      expect(lines).toEqual([
        [1, 'ab', 4],
        [2, '', 1],
        [3, 'c\u00e9d', 5],
        [4, 'last', 4],
      ]);
    }
  });

  it('refuses a line past the limit instead of holding it', async () => {
    const run = async () => {
      for await (const line of splitLines(chunks('x'.repeat(100), 8), 'f', 50)) void line;
    };
    await expect(run()).rejects.toMatchObject({ code: 'E_IMPORT_FORMAT', place: { file: 'f', line: 1 } });
  });
});

describe('readJsonUnits', () => {
  it('reads JSON lines, skipping blank ones, with CRLF and a BOM', async () => {
    const got = await units('\ufeff{"a":1}\r\n\n  \n[2]\r\n"x"');
    expect(got.map((u) => [u.kind, u.value, u.line, u.where, u.bytes])).toEqual([
      ['line', { a: 1 }, 1, 'f.json:1', 12],
      ['line', [2], 4, 'f.json:4', 5],
      ['line', 'x', 5, 'f.json:5', 3],
    ]);
    expect(got[0].digest).toBe(unitDigest('{"a":1}'));
  });

  it('reads a pretty-printed document whole, as one unit', async () => {
    const text = '\n{\n  "a": [1,\n 2]\n}\n';
    const got = await units(text);
    expect(got).toEqual([{ kind: 'document', value: { a: [1, 2] }, file: 'f.json', where: 'f.json', digest: unitDigest(text), bytes: text.length }]);
  });

  it('places syntax errors at line and column, finding the column when V8 gives no position', async () => {
    expect((await error('{"a":1}\n{"a":}\n')).place).toEqual({ file: 'f.json', line: 2, column: 6 }); // "Unexpected token '}'"
    expect((await error('{"a":1}\n{"a":1\n')).place).toEqual({ file: 'f.json', line: 2, column: 7 }); // at the end
    expect((await error('{"a":1}\nnul\n')).place).toEqual({ file: 'f.json', line: 2, column: 4 });
    expect((await error('{\n  "a": tru\n}')).place).toEqual({ file: 'f.json', line: 2, column: 11 });
    expect((await error('{\n  "a": 1\n}\n{"b": 2}\n')).place).toEqual({ file: 'f.json', line: 4, column: 1 }); // two documents
    expect((await error('x\n')).message).toBe("f.json:1:1: not JSON: Unexpected token 'x' [E_IMPORT_SYNTAX]");
  });

  it('caps a single document, and names a broken first line when that is the likelier fault', async () => {
    const doc = `{\n${'"k": 1,\n'.repeat(20)}"end": 0}\n`;
    expect((await units(doc, 7, doc.length))[0].value).toMatchObject({ k: 1, end: 0 });
    const tooBig = await error(doc, 100);
    expect(tooBig.code).toBe('E_IMPORT_FORMAT');
    expect(tooBig.message).toMatch(/single JSON document larger than/);
    const brokenDump = await error(`{"a":1,"b":}\n${'{"a":1}\n'.repeat(30)}`, 100);
    expect(brokenDump.code).toBe('E_IMPORT_SYNTAX');
    expect(brokenDump.place).toEqual({ file: 'f.json', line: 1, column: 12 });
    expect(brokenDump.detail).toMatch(/nor is the file a single JSON document/);
  });

  it('refuses text that is not UTF-8', async () => {
    expect((await error(Buffer.from([0x22, 0xe9, 0x22, 0x0a]))).place).toEqual({ file: 'f.json', line: 1 });
  });
});
