import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanRawFile } from './raw-rows.js';
import { NeedsParser, scanKeyedRows, scanRawKeyed } from './fast-rows.js';

const dir = mkdtempSync(join(tmpdir(), 'omm-fast-rows-'));

/** What the CSV parser reads of a file: per row the asked cells and the row's start line; rows; SHA-256. */
async function parsed(file: string, columns: string[]) {
  const rows: [string[], number][] = [];
  const scanned = await scanRawFile(dir, file as 'songs', (row, _cells, _header, line) => rows.push([columns.map((c) => row[c] ?? ''), line]));
  return { rows, count: scanned!.rows, sha256: scanned!.sha256 };
}

async function fast(file: string, columns: string[]) {
  const rows: [string[], number][] = [];
  const texts: string[] = [];
  const scanned = await scanKeyedRows(join(dir, `${file}.csv`), columns, (keys, row, line) => {
    rows.push([keys, line]);
    texts.push(row.toString('utf8'));
  });
  return { rows, count: scanned!.rows, sha256: scanned!.sha256, texts };
}

describe('rows split without parsing every cell (fast-rows.ts)', () => {
  it('reads the asked cells, lines and counts the CSV parser reads', async () => {
    const body = [
      '\ufeffsong_id,language,text',
      's1,en,"a line',
      'and another, with a comma',
      'and ""quotes"""',
      '',
      '"s,2",fr,plain',
      's3,de,"x"\r',
      's4,,"last\r\nline"',
    ].join('\n');
    writeFileSync(join(dir, 'songs.csv'), body);
    for (const columns of [['song_id'], ['song_id', 'language'], ['language', 'text'], ['missing', 'song_id']]) {
      const a = await parsed('songs', columns);
      const b = await fast('songs', columns);
      expect(b.rows).toEqual(a.rows);
      expect(b.count).toBe(a.count);
      expect(b.sha256).toBe(a.sha256);
    }
    expect((await fast('songs', ['song_id'])).texts[0]).toBe('s1,en,"a line\nand another, with a comma\nand ""quotes"""');
  });

  it('a lone CR line break is left to the CSV parser', async () => {
    writeFileSync(join(dir, 'albums.csv'), 'id,name\ra1,x\ra2,y\n');
    await expect(scanKeyedRows(join(dir, 'albums.csv'), ['id'], () => undefined)).rejects.toBeInstanceOf(NeedsParser);
  });

  it('a raw file the scanner cannot split is read again by the parser, after a restart', async () => {
    writeFileSync(join(dir, 'artists.csv'), 'id,name\ra1,x\ra2,"y, z"\n');
    const rows: string[] = [];
    let restarts = 0;
    const scanned = await scanRawKeyed(
      dir,
      'artists',
      ['id'],
      (keys, row) => rows.push(`${keys[0]}:${row.toString('utf8')}`),
      () => restarts++,
    );
    expect(restarts).toBe(1);
    expect(rows).toEqual(['a1:a1,x', 'a2:a2,"y, z"']);
    expect(scanned!.rows).toBe(2);
  });

  it('a file larger than a read splits rows across reads alike', async () => {
    const lines = ['song_id,language,text'];
    for (let i = 0; i < 40_000; i++) lines.push(`s${i},en,"${'word '.repeat(i % 13)}\n${i}"`);
    writeFileSync(join(dir, 'lyrics.csv'), `${lines.join('\n')}\n`);
    const a = await parsed('lyrics', ['song_id']);
    const b = await fast('lyrics', ['song_id']);
    expect(b.rows).toEqual(a.rows);
    expect(b.count).toBe(40_000);
  });
});
