import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { importChinook } from '../src/import/chinook.js';
import { importExportify, splitNames, spotifyId } from '../src/import/exportify.js';
import { importMostStreamed, isDamaged, usDate } from '../src/import/most-streamed.js';
import { Snapshot } from '../src/index-format/index.js';
import { tempDir } from './helpers/raw-fixture.js';

const fixtures = join(import.meta.dirname, 'fixtures');
const lines = (dir: string, file: string) =>
  readFileSync(join(dir, `${file}.csv`), 'utf8')
    .trimEnd()
    .split('\n');

describe('omm import chinook', () => {
  let raw: string;
  let snap: Snapshot;
  beforeAll(async () => {
    raw = tempDir();
    await importChinook(join(fixtures, 'chinook', 'ChinookData.json'), raw);
    const out = tempDir();
    await compileCatalog({ rawDir: raw, outDir: out });
    snap = Snapshot.open(out);
  });

  it('converts every catalog table of the real database, and the result compiles', () => {
    expect(snap.manifest.counts).toMatchObject({ artists: 275, albums: 347, songs: 3503, playlists: 18, genres: 25, files: 3503 });
    expect(lines(raw, 'playlist_tracks')).toHaveLength(8715 + 1);
  });

  it('keeps names, album order, durations and credits', () => {
    const song = snap.records('songs').get<Record<string, unknown>>(snap.keys('song.id').get('1'));
    expect(song).toMatchObject({
      name: 'For Those About To Rock (We Salute You)',
      albumName: 'For Those About To Rock We Salute You',
      artistName: 'AC/DC',
      trackNumber: 1,
      durationMs: 343719,
      genres: ['Rock'],
    });
    const album = snap.keys('album.id').get('1');
    const tracks = snap.arrays('relations').adjacency('album.tracks').targetsOf(album);
    expect([...tracks].map((t) => snap.records('songs').get<{ id: string }>(t).id)).toEqual(['1', '6', '7', '8', '9', '10', '11', '12', '13', '14']);
  });

  it('uses units sold (summed InvoiceLine quantities) as popularity', () => {
    const popularity = (id: string) => snap.records('songs').get<{ popularity: number }>(snap.keys('song.id').get(id)).popularity;
    expect(popularity('2')).toBe(2);
    expect(popularity('1')).toBe(1);
    expect(popularity('7')).toBe(0); // never sold
  });

  it('refuses a file that is not ChinookData.json', async () => {
    const bogus = join(tempDir(), 'x.json');
    writeFileSync(bogus, '{"Genre":[]}');
    await expect(importChinook(bogus, tempDir())).rejects.toThrow(/no MediaType table/);
  });
});

describe('omm import exportify', () => {
  let raw: string;
  let snap: Snapshot;
  let warnings: string[];
  beforeAll(async () => {
    raw = tempDir();
    const summary = await importExportify([join(fixtures, 'exportify', 'liked.csv'), join(fixtures, 'exportify', '樂舒簡.csv')], raw);
    warnings = summary.warnings;
    const out = tempDir();
    await compileCatalog({ rawDir: raw, outDir: out });
    snap = Snapshot.open(out);
  });
  const song = (id: string) => snap.records('songs').get<Record<string, unknown>>(snap.keys('song.id').get(id));

  it('imports both real exports and compiles them', () => {
    expect(snap.manifest.counts).toMatchObject({ songs: 997, albums: 804, artists: 834, playlists: 2 });
    expect(lines(raw, 'playlist_tracks')).toHaveLength(1034 + 1);
  });

  it('leaves out unavailable tracks with a warning naming file and line, never silently', () => {
    expect(warnings).toEqual([
      expect.stringMatching(/^樂舒簡\.csv:34: track 3LfiZlWffAqGOAQ6sKjoJP has no title/),
      expect.stringMatching(/^樂舒簡\.csv:36: track 6Bh5qRgU4AysQh3Vv2N5Nt has no title/),
    ]);
  });

  it('keeps ISRCs, non-Latin names and multi-artist credits in order', () => {
    expect(song('43U4jRnomBZz8QfnrHh5NS')).toMatchObject({
      name: 'グリズリーに襲われたら♡ - Live in Okinawa',
      isrc: 'QMFME2241679',
      artistName: 'kamiyado',
      durationMs: 251874,
    });
    expect(song('6K1kucHD9Qp6ZgxFdHY2wV')).toMatchObject({
      name: 'Tình ca tây bắc',
      artistNames: ['Anh Thơ', 'Việt Hoàn'],
      artistName: 'Anh Thơ & Việt Hoàn',
      isrc: 'VNA0F1796514',
      releaseDate: '2009-01-01',
    });
    expect(snap.keys('song.isrc').getAll('VNA0F1796514')).toHaveLength(1);
  });

  it('takes artwork, disc and track numbers from the export', () => {
    expect(song('43U4jRnomBZz8QfnrHh5NS')).toMatchObject({
      artworkUrl: 'https://i.scdn.co/image/ab67616d0000b273e235cf240dfb192a8b6046f5',
      trackNumber: 9,
      discNumber: 1,
    });
  });

  it('splits credit cells on ", " and keeps "\\," as a comma inside a name', () => {
    expect(splitNames('Anh Thơ, Việt Hoàn')).toEqual(['Anh Thơ', 'Việt Hoàn']);
    expect(splitNames('Tyler\\, The Creator, Kali Uchis')).toEqual(['Tyler, The Creator', 'Kali Uchis']);
    expect(spotifyId('spotify:track:43U4jRnomBZz8QfnrHh5NS')).toBe('43U4jRnomBZz8QfnrHh5NS');
    expect(spotifyId('spotify:local:Artist:Album:Title:200')).toBeNull();
  });

  it('merges into an existing raw directory without duplicating ids', async () => {
    const merged = tempDir();
    await importExportify([join(fixtures, 'exportify', 'liked.csv')], merged);
    const before = lines(merged, 'songs').length;
    await importExportify([join(fixtures, 'exportify', 'liked.csv')], merged, { merge: true });
    expect(lines(merged, 'songs')).toHaveLength(before);
  });
});

describe('omm import most-streamed', () => {
  // Real rows of "Most Streamed Spotify Songs 2024" (../shared/datasets), bytes as published:
  // Windows-1252, with UTF-8 replacement bytes read as Windows-1252 (`ï¿`) and CJK lost as `ý`.
  const file = join(fixtures, 'most-streamed', 'Most Streamed Spotify Songs 2024 (sample).csv');
  let raw: string;
  let snap: Snapshot;
  let summary: Awaited<ReturnType<typeof importMostStreamed>>;
  beforeAll(async () => {
    raw = tempDir();
    summary = await importMostStreamed(file, raw);
    const out = tempDir();
    await compileCatalog({ rawDir: raw, outDir: out });
    snap = Snapshot.open(out);
  });
  const song = (isrc: string) => snap.records('songs').get<Record<string, unknown>>(snap.keys('song.id').get(`ms-${isrc}`));

  it('detects Windows-1252, imports one song per ISRC and compiles', () => {
    expect(summary.encoding).toBe('windows-1252');
    expect(snap.manifest.counts).toMatchObject({ songs: 11 });
    expect(summary.warnings).toEqual([expect.stringMatching(/sample\)\.csv:13: ISRC QZJ842400387 repeats an earlier row; left out/)]);
  });

  it('turns the mojibake back into one replacement character, and flags damaged names', () => {
    const texas = song('USSM12401302');
    expect(texas.artistName).toBe('Beyonc\ufffd');
    expect(isDamaged(texas.artistName as string)).toBe(true);
    expect(isDamaged(song('KRE671700001').albumName as string)).toBe(true); // ýýý...
    expect(isDamaged('Beyoncé')).toBe(false);
  });

  it('converts M/D/YYYY dates and refuses impossible ones', () => {
    expect(song('QM24S2402528').releaseDate).toBe('2024-04-26');
    expect(usDate('2/30/2024')).toBeNull();
    expect(usDate('12/1/2015')).toBe('2015-12-01');
  });
});
