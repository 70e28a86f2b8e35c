import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCatalog, CompileError } from '../src/compile/index.js';
import { Snapshot, verifySnapshot } from '../src/index-format/index.js';
import { SMALL_CATALOG, tempDir, writeRaw, type RawFiles } from './helpers/raw-fixture.js';

async function failure(files: RawFiles): Promise<CompileError> {
  const err = await compileCatalog({ rawDir: writeRaw(files), outDir: tempDir() }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(CompileError);
  return err as CompileError;
}

const withRows = (file: keyof typeof SMALL_CATALOG, ...rows: string[]): RawFiles => ({
  ...SMALL_CATALOG,
  [file]: `${SMALL_CATALOG[file]}\n${rows.join('\n')}`,
});

describe('validation errors name file, line and column', () => {
  const cases: [string, RawFiles, string, number, string | undefined, string][] = [
    ['missing required file', { ...SMALL_CATALOG, songs: undefined as never }, 'E_RAW_FILE', 0, undefined, 'songs.csv: required file is missing'],
    [
      'missing required column',
      { ...SMALL_CATALOG, artists: 'id,genres\n1,Rock' },
      'E_RAW_HEADER',
      0,
      'name',
      'artists.csv: column name: required column is missing',
    ],
    ['unknown column', { ...SMALL_CATALOG, artists: 'id,name,colour\n1,A,red' }, 'E_RAW_HEADER', 0, 'colour', 'unknown column'],
    ['empty required cell', withRows('songs', '104,,,,,,,,'), 'E_RAW_ROW', 6, 'name', 'songs.csv:6: column name: required value is empty'],
    ['bad ISRC', withRows('songs', '104,X,NOTANISRC,,,,,,'), 'E_RAW_ROW', 6, 'isrc', 'is not an ISRC'],
    ['bad UPC check digit', withRows('albums', '13,X,036000291453,,,,,,'), 'E_RAW_ROW', 5, 'upc', 'wrong GS1 check digit'],
    ['bad UPC shape', withRows('albums', '13,X,12345,,,,,,'), 'E_RAW_ROW', 5, 'upc', 'is not a 12-digit UPC-A'],
    ['impossible date', withRows('albums', '13,X,,,2023-02-30,,,,'), 'E_RAW_ROW', 5, 'release_date', 'not a real calendar date'],
    ['bad date shape', withRows('albums', '13,X,,,03/02/2020,,,,'), 'E_RAW_ROW', 5, 'release_date', 'is not YYYY, YYYY-MM or YYYY-MM-DD'],
    ['bad integer', withRows('songs', '104,X,,-5,,,,,'), 'E_RAW_ROW', 6, 'duration_ms', 'not a non-negative integer'],
    ['bad url', withRows('songs', '104,X,,,,,ftp://x/y,,'), 'E_RAW_ROW', 6, 'artwork_url', 'not an absolute http(s) URL'],
    ['bad id', withRows('artists', 'a b,X,,,,,'), 'E_RAW_ROW', 6, 'id', 'is not an id'],
    ['wrong cell count', withRows('artists', '9,X'), 'E_RAW_ROW', 6, undefined, 'row has 2 cells; the header has 7'],
    ['duplicate id', withRows('artists', '2,Again,,,,,'), 'E_RAW_DUPLICATE', 6, 'id', 'already used on line 3'],
    [
      'duplicate catalog id',
      withRows('artists', '9,Clone,abcdefghij012345,,,,'),
      'E_RAW_DUPLICATE',
      6,
      'omm_id',
      'omm:artist:abcdefghij012345 is already used on line 4',
    ],
    ['dangling reference', withRows('album_tracks', '10,999,1,9'), 'E_RAW_REF', 7, 'song_id', '"999" is not an id in songs.csv'],
    [
      'two songs at one position',
      withRows('album_tracks', '11,103,1,1'),
      'E_RAW_CONFLICT',
      7,
      'track_number',
      'disc 1 track 1 of album 11 is already song 102',
    ],
    ['two preferred files', withRows('files', 'f9,100,audio/ogg,,,,,,,,,,true'), 'E_RAW_CONFLICT', 5, 'preferred', 'already has a preferred file'],
    ['bad language tag', withRows('lyrics', '101,not a tag!,x,'), 'E_RAW_ROW', 5, 'language', 'not a BCP 47 language tag'],
  ];
  it.each(cases)('%s', async (_name, files, code, line, column, text) => {
    const err = await failure(files);
    const issue = err.issues.find((i) => i.code === code);
    expect(issue, err.message).toBeDefined();
    expect(issue!.line).toBe(line);
    expect(issue!.column).toBe(column);
    expect(err.message).toContain(text);
    if (line > 0) expect(err.message).toContain(`:${line}:`);
  });

  it('counts lines through quoted line breaks', async () => {
    const files = { ...SMALL_CATALOG, lyrics: 'song_id,language,text,ttml\n100,en,"one\ntwo\nthree",\n101,xx-!!,x,' };
    const err = await failure(files);
    expect(err.issues[0]).toMatchObject({ file: 'lyrics.csv', line: 5, column: 'language' });
  });

  it('reports every error in one run, up to the cap', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => `x${i},Name,BAD,,,,,,`);
    const err = await failure(withRows('songs', ...rows));
    expect(err.totalIssues).toBe(150);
    expect(err.issues).toHaveLength(100);
    expect(err.message).toContain('and 50 more');
  });
});

describe('--skip-invalid', () => {
  it('publishes the valid rest and lists every rejected row with its reason in rejects.csv', async () => {
    const files = withRows('songs', '104,X,NOTANISRC,,,,,,', '105,Fine,,,,,,,');
    files.album_tracks = `${files.album_tracks}\n10,104,1,3`;
    const out = tempDir();
    const result = await compileCatalog({ rawDir: writeRaw(files), outDir: out, skipInvalid: true });
    expect(result.rejectedRows).toBe(2);
    const rejects = readFileSync(result.rejectsPath!, 'utf8').trim().split('\n');
    expect(rejects[0]).toBe('file,line,column,code,reason,row');
    expect(rejects[1]).toContain('songs.csv,6,isrc,E_RAW_ROW');
    expect(rejects[1]).toContain('"104,X,NOTANISRC,,,,,,"');
    expect(rejects[2]).toContain('album_tracks.csv,7,song_id,E_RAW_REF');
    const snap = Snapshot.open(out);
    expect(snap.manifest.counts.songs).toBe(5);
    expect(snap.manifest.rejectedRows).toBe(2);
    expect(snap.keys('song.id').get('104')).toBe(-1);
    expect(snap.keys('song.id').get('105')).toBeGreaterThanOrEqual(0);
    snap.close();
  });

  it('files and lyrics rows rejected after the first pass wrote their records are left out of the tables', async () => {
    // The first pass writes files and lyrics records as it reads them; a row it rejects itself
    // (bad cell) never gets one, a row the reference checks reject later (unknown song, repeated
    // file id) makes the compile write that table again without it.
    const files = withRows(
      'files',
      'f4,999,audio/mpeg,mp3,false,128,44100,2,,,https://cdn.example.com/f4.mp3,,',
      'f5,101,audio/mpeg,mp3,maybe,128,44100,2,,,,,',
      'f1,101,audio/mpeg,mp3,false,128,44100,2,,,,,',
      'f6,101,audio/ogg,vorbis,false,160,44100,2,,,https://cdn.example.com/f6.ogg,,',
    );
    files.lyrics = `${files.lyrics}
999,en,"no such song",
101,en,"B words",`;
    const out = tempDir();
    const result = await compileCatalog({ rawDir: writeRaw(files), outDir: out, skipInvalid: true });
    expect(result.rejectedRows).toBe(4);
    const snap = Snapshot.open(out);
    const table = snap.records('files');
    expect(Array.from({ length: table.count }, (_, i) => table.get<{ id: string }>(i).id)).toEqual(['f1', 'f2', 'f3', 'f6']);
    const lyrics = snap.records('lyrics');
    expect(Array.from({ length: lyrics.count }, (_, i) => lyrics.get<{ songId: string }>(i).songId)).toEqual(['100', '100', '101']);
    const song101 = snap.keys('song.id').get('101');
    const fileIds = [...snap.arrays('relations').adjacency('song.files').targetsOf(song101)].map((f) => table.get<{ id: string }>(f).id);
    expect(fileIds).toEqual(['f6']);
    expect(verifySnapshot(out).problems).toEqual([]);
    snap.close();
  });

  it('files and lyrics tables written by the first pass are kept when no later check rejects their rows', async () => {
    const files = withRows('files', 'f5,101,audio/mpeg,mp3,maybe,128,44100,2,,,,,');
    const out = tempDir();
    const result = await compileCatalog({ rawDir: writeRaw(files), outDir: out, skipInvalid: true });
    expect(result.rejectedRows).toBe(1);
    const snap = Snapshot.open(out);
    const table = snap.records('files');
    expect(Array.from({ length: table.count }, (_, i) => table.get<{ id: string }>(i).id)).toEqual(['f1', 'f2', 'f3']);
    snap.close();
  });
});

describe('a failed compile loses nothing', () => {
  it('leaves the previous snapshot current and intact', async () => {
    const out = tempDir();
    const good = await compileCatalog({ rawDir: writeRaw(SMALL_CATALOG), outDir: out });
    const before = readFileSync(join(out, 'current'), 'utf8');
    await expect(compileCatalog({ rawDir: writeRaw(withRows('songs', '104,,,,,,,,')), outDir: out })).rejects.toThrow(CompileError);
    expect(readFileSync(join(out, 'current'), 'utf8')).toBe(before);
    expect(verifySnapshot(out)).toMatchObject({ buildId: good.buildId, problems: [] });
    expect(readdirSync(out).filter((n) => n.startsWith('.staging'))).toEqual([]);
    expect(existsSync(good.snapshotDir)).toBe(true);
  });
});
