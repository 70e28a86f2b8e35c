import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mapF64Column, mapU32Column, NumberColumnWriter, StringColumn, StringColumnWriter } from './columns.js';

const dir = mkdtempSync(join(tmpdir(), 'omm-columns-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('column files', () => {
  it('u32 and f64 columns read back what was pushed, one at a time and in blocks', () => {
    const u = new NumberColumnWriter(join(dir, 'u'), 'u32');
    const f = new NumberColumnWriter(join(dir, 'f'), 'f64');
    for (let i = 0; i < 300_000; i++) {
      u.push((i * 2654435761) >>> 0);
      f.push(i % 7 === 0 ? Number.NaN : i / 3);
    }
    u.pushAll(Uint32Array.of(1, 2, 3));
    u.finish();
    f.finish();
    const us = mapU32Column(join(dir, 'u'));
    const fs = mapF64Column(join(dir, 'f'));
    expect(us.length).toBe(300_003);
    expect(fs.length).toBe(300_000);
    expect(us[12345]).toBe((12345 * 2654435761) >>> 0);
    expect([...us.subarray(300_000)]).toEqual([1, 2, 3]);
    expect(fs[14]).toBeNaN();
    expect(fs[299_998]).toBe(299_998 / 3);
  });

  it('string columns keep any text, empty and long strings included', () => {
    const values = ['', 'a', 'Beyoncé', '日本語のタイトル', 'x'.repeat(300), '🎵 emoji', ''];
    const long = 'y'.repeat(3_000_000);
    const w = new StringColumnWriter(join(dir, 's'));
    for (let i = 0; i < 50_000; i++) w.push(i === 40_000 ? long : values[i % values.length]);
    w.finish();
    const col = StringColumn.open(join(dir, 's'));
    expect(col.length).toBe(50_000);
    for (const i of [0, 1, 2, 3, 4, 5, 6, 7, 39_999, 40_001, 49_999]) expect(col.get(i)).toBe(values[i % values.length]);
    expect(col.get(40_000)).toBe(long);
    expect(col.bytes(2).toString('utf8')).toBe('Beyoncé');
  });
});
