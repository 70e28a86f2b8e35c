import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csvField } from '../../raw/csv-writer.js';
import { spliceCsv } from './csv-splice.js';

const dir = mkdtempSync(join(tmpdir(), 'omm-splice-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Names with what quoting must carry: commas, quotes, line feeds, a leading space. */
const nameOf = (i: number, version: string): string => [`Song ${i}`, `A, B ${i}`, `"Q" ${i}`, `two\nlines ${i}`, ` pad ${i}`][i % 5] + version;
const line = (id: string, name: string, n: number): string => `${id},${csvField(name)},${n}\n`;
const idOf = (i: number): string => `id${String(i).padStart(6, '0')}`;

describe('spliceCsv', () => {
  it("replaces the touched ids' rows with the new ones in id order, across read blocks and quoted line feeds, and says what it wrote", () => {
    const header = 'id,name,n\n';
    const count = 40_000; // several 1 MiB read blocks
    const old: { id: string; text: string }[] = [];
    for (let i = 0; i < count; i++) old.push({ id: idOf(i), text: line(idOf(i), nameOf(i, ''), i) });
    // Touched: every 7th id (its rows replaced by two, or by none every 21st), plus new ids after some and past the end.
    const touched = new Set<string>();
    const fresh: { id: string; text: string }[] = [];
    for (let i = 0; i < count; i += 7) {
      touched.add(idOf(i));
      if (i % 21 !== 0) fresh.push({ id: idOf(i), text: line(idOf(i), nameOf(i, ' v2'), 1) + line(idOf(i), nameOf(i + 1, ' v2'), 2) });
    }
    for (const extra of [`${idOf(10)}a`, `${idOf(count)}`, 'zz-last']) {
      touched.add(extra);
      fresh.push({ id: extra, text: line(extra, nameOf(3, ' new'), 0) });
    }
    fresh.sort((a, b) => Buffer.compare(Buffer.from(a.id), Buffer.from(b.id)));
    writeFileSync(join(dir, 'old.csv'), header + old.map((r) => r.text).join(''));
    writeFileSync(join(dir, 'new.csv'), header + fresh.map((r) => r.text).join(''));

    const kept = old.filter((r) => !touched.has(r.id));
    const expected =
      header +
      [...kept, ...fresh]
        .sort((a, b) => Buffer.compare(Buffer.from(a.id), Buffer.from(b.id)))
        .map((r) => r.text)
        .join('');
    const ids = [...touched].map((id) => Buffer.from(id)).sort(Buffer.compare);
    const result = spliceCsv(join(dir, 'old.csv'), join(dir, 'new.csv'), ids, join(dir, 'out.csv'));

    const written = readFileSync(join(dir, 'out.csv'));
    expect(written.toString('utf8')).toBe(expected);
    expect(result.size).toBe(written.length);
    expect(result.sha256).toBe(createHash('sha256').update(written).digest('hex'));
    expect(result.oldRows).toBe(count);
    expect(result.rows).toBe(kept.length + fresh.reduce((n, r) => n + (r.text.match(/,\d+\n/g)?.length ?? 0), 0));
  });

  it('writes the new rows alone when there was no old file', () => {
    writeFileSync(join(dir, 'only.csv'), 'id,name\na,x\nb,"y\nz"\n');
    const result = spliceCsv(join(dir, 'absent.csv'), join(dir, 'only.csv'), [Buffer.from('a'), Buffer.from('b')], join(dir, 'out2.csv'));
    expect(readFileSync(join(dir, 'out2.csv'), 'utf8')).toBe('id,name\na,x\nb,"y\nz"\n');
    expect(result).toMatchObject({ rows: 2, oldRows: 0 });
  });
});
