import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { generateCatalog } from '../src/generate/generate.js';
import { gs1CheckDigit, normalizeIsrc } from '../src/raw/codes.js';
import { readRawTable, tempDir } from './helpers/raw-fixture.js';

const table = readRawTable;

describe('omm generate', () => {
  let dir: string;
  beforeAll(async () => {
    dir = tempDir();
    await generateCatalog({ songs: 3000, seed: 7, out: dir });
  });

  it('is deterministic: the same seed writes byte-identical files, another seed different ones', async () => {
    const again = tempDir();
    await generateCatalog({ songs: 3000, seed: 7, out: again });
    const other = tempDir();
    await generateCatalog({ songs: 3000, seed: 8, out: other });
    for (const file of readdirSync(dir)) {
      expect(readFileSync(join(again, file)).equals(readFileSync(join(dir, file))), file).toBe(true);
    }
    expect(readFileSync(join(other, 'songs.csv')).equals(readFileSync(join(dir, 'songs.csv')))).toBe(false);
  });

  it('writes exactly the songs asked for, with valid ISRCs', () => {
    const songs = table(dir, 'songs');
    expect(songs).toHaveLength(3000);
    for (const s of songs) expect(normalizeIsrc(s.isrc), s.isrc).toBe(s.isrc);
  });

  it('gives every album a UPC-A or EAN-13 with a correct GS1 check digit', () => {
    const upcs = table(dir, 'albums')
      .map((a) => a.upc)
      .filter((u) => u.length > 0);
    expect(upcs.length).toBeGreaterThan(0);
    expect(new Set(upcs.map((u) => u.length))).toEqual(new Set([12, 13]));
    for (const upc of upcs) expect(gs1CheckDigit(upc.slice(0, -1)), upc).toBe(Number(upc.at(-1)));
  });

  it('credits 1-3 artists per song and keeps albums at 1-30 tracks', () => {
    const credits = new Map<string, number>();
    for (const c of table(dir, 'song_artists')) credits.set(c.song_id, (credits.get(c.song_id) ?? 0) + 1);
    expect(Math.min(...credits.values())).toBeGreaterThanOrEqual(1);
    expect(Math.max(...credits.values())).toBeLessThanOrEqual(3);
    expect(new Set(credits.values()).size).toBe(3);
    const tracks = new Map<string, number>();
    for (const t of table(dir, 'album_tracks')) tracks.set(t.album_id, (tracks.get(t.album_id) ?? 0) + 1);
    expect(Math.max(...tracks.values())).toBeLessThanOrEqual(30);
  });

  it('writes names in several scripts and a power-law popularity', () => {
    const names = table(dir, 'artists').map((a) => a.name);
    expect(names.some((n) => /\p{Script=Latin}/u.test(n))).toBe(true);
    expect(names.some((n) => /\p{Script=Cyrillic}/u.test(n))).toBe(true);
    expect(names.some((n) => /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul}/u.test(n))).toBe(true);
    const popularity = table(dir, 'songs')
      .map((s) => Number(s.popularity))
      .sort((a, b) => b - a);
    const top = popularity.slice(0, 30).reduce((a, b) => a + b, 0);
    const median = popularity[popularity.length >> 1];
    expect(top / 30).toBeGreaterThan(10 * Math.max(1, median));
  });

  it('compiles with no error: every reference resolves, no duplicate id or track slot', async () => {
    const result = await compileCatalog({ rawDir: dir, outDir: tempDir() });
    expect(result.rejectedRows).toBe(0);
    expect(result.manifest.counts.songs).toBe(3000);
    expect(result.manifest.counts.files).toBeGreaterThan(0);
    expect(result.manifest.counts.lyrics).toBeGreaterThan(0);
  });
});
