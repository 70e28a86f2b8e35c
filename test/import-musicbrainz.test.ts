import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { create as createTar } from 'tar/create';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportError } from '../src/import/import-error.js';
import { readMusicBrainz } from '../src/import/musicbrainz/read-musicbrainz.js';
import { runStreamedImport } from '../src/import/stage/run-import.js';
import { unitDigest } from '../src/import/stage/source-unit.js';
import type { CatalogSink, ImportReport, SourceUnit, StagedAlbum, StagedArtist, StagedSong } from '../src/import/stage/staged.js';
import { tempDir } from './helpers/raw-fixture.js';
import { serveRaw, type TestServer } from './helpers/server.js';
import { findTool, missingShared, missingTool } from './helpers/requirements.js';

/** Every call a reader makes, in order. */
type Call =
  | { readonly call: 'release'; readonly unit: SourceUnit; readonly album: StagedAlbum }
  | { readonly call: 'takedown'; readonly unit: SourceUnit; readonly albumId: string }
  | { readonly call: 'song'; readonly unit: SourceUnit; readonly song: StagedSong }
  | { readonly call: 'artist'; readonly unit: SourceUnit; readonly artist: StagedArtist };

class MemorySink implements CatalogSink {
  readonly calls: Call[] = [];
  release(unit: SourceUnit, album: StagedAlbum): void {
    this.calls.push({ call: 'release', unit, album });
  }
  takedown(unit: SourceUnit, albumId: string): void {
    this.calls.push({ call: 'takedown', unit, albumId });
  }
  song(unit: SourceUnit, song: StagedSong): void {
    this.calls.push({ call: 'song', unit, song });
  }
  artist(unit: SourceUnit, artist: StagedArtist): void {
    this.calls.push({ call: 'artist', unit, artist });
  }
}

class MemoryReport implements ImportReport {
  readonly skips: string[] = [];
  readonly warnings: string[] = [];
  readonly units: { kind: string; bytes: number }[] = [];
  skip(where: string, item: string, reason: string): void {
    this.skips.push(`${where}: ${item}: ${reason}`);
  }
  warn(where: string, message: string): void {
    this.warnings.push(`${where}: ${message}`);
  }
  unit(kind: string, bytes: number): void {
    this.units.push({ kind, bytes });
  }
}

async function read(...inputs: string[]): Promise<{ calls: Call[]; report: MemoryReport }> {
  const sink = new MemorySink();
  const report = new MemoryReport();
  await readMusicBrainz(inputs, sink, report);
  return { calls: sink.calls, report };
}

/** The ImportError `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<ImportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
}

const releases = (calls: Call[]) => calls.flatMap((c) => (c.call === 'release' ? [c.album] : []));
const songs = (calls: Call[]) => calls.flatMap((c) => (c.call === 'song' ? [c.song] : []));
const sha256 = (text: string | Buffer) => unitDigest(text);

const shared = join(import.meta.dirname, '..', '..', 'shared', 'fixtures', 'musicbrainz');
const own = join(import.meta.dirname, 'fixtures', 'musicbrainz');
const hasXz = missingTool('xz', findTool(['xz'])) === null;
const noShared = missingShared(shared);

const ED = { id: 'b8a7c51f-362c-4dcb-a259-bc6e0095f0a6', name: 'Ed Sheeran' };

describe.skipIf(noShared !== null)(`the public MusicBrainz samples${noShared ? ` (skipped: ${noShared})` : ''}`, () => {
  const dump = join(shared, 'jsondump-recording_first-100-lines_ddmal-test2.jsonl');

  it('reads the recording dump: 100 lines, 100 songs, each its own unit', async () => {
    const { calls, report } = await read(dump);
    const lines = readFileSync(dump, 'utf8').split('\n').slice(0, 100);
    expect(calls).toHaveLength(100);
    expect(calls.every((c) => c.call === 'song')).toBe(true);
    expect(calls.map((c) => c.unit)).toEqual(lines.map((line, i) => ({ where: `${dump}:${i + 1}`, created: '', digest: sha256(line) })));
    expect(songs(calls).map((s) => s.id)).toEqual(lines.map((line) => (JSON.parse(line) as { id: string }).id));
    expect(report.units).toHaveLength(100);
    expect(report.units.every((u) => u.kind === 'line')).toBe(true);
    expect(report.units.reduce((n, u) => n + u.bytes, 0)).toBe(statSync(dump).size);
    expect(report.skips).toEqual([]);
    expect(report.warnings).toEqual([]);
  });

  it('maps the recording with an ISRC, null lengths and genres', async () => {
    const all = songs((await read(dump)).calls);
    expect(all[85]).toEqual({
      id: 'e8f8ba70-45f7-4dac-a39a-fc0120249157',
      name: 'Haste to the Wedding (live)',
      isrc: 'USAT20003751',
      genres: ['pop', 'celtic', 'folk', 'folk rock', 'pop rock', 'rock', 'soft rock'],
      artists: [{ id: expect.any(String), name: 'The Corrs' }],
      artistName: 'The Corrs',
    });
    expect(all.filter((s) => s.isrc !== undefined).map((s) => s.isrc)).toEqual(['USAT20003751']);
    expect(all[0]).toEqual({
      id: '10b9c34b-821d-4cc8-9587-5c7d0cb68865',
      name: 'Suck',
      artists: [{ id: '11137c88-a9a2-4ffa-a97d-fb058c6d6ce2', name: 'Pigface' }],
      artistName: 'Pigface',
    });
    expect(all[2]).toMatchObject({ name: 'The Calling', durationMs: 264000 });
  });

  it('keeps multi-artist credits in order with their join phrases', async () => {
    const all = songs((await read(dump)).calls);
    const multi = all.filter((s) => s.artists.length > 1);
    expect(multi).toHaveLength(8);
    expect(all[31]).toMatchObject({
      name: 'Black Star',
      artistName: 'Qaballah Steppers feat. Marc Ribot',
      artists: [{ name: 'Qaballah Steppers' }, { name: 'Marc Ribot' }],
    });
    expect(all[58]).toMatchObject({
      artistName: 'Robert Shaw Chorale, Robert Shaw Orchestra, Robert Shaw',
      artists: [{ name: 'Robert Shaw Chorale' }, { name: 'Robert Shaw Orchestra' }, { name: 'Robert Shaw' }],
    });
    expect(all[84]).toMatchObject({
      name: 'War',
      artistName: 'Analog Brothers feat. DJ Cisco from S.M. & H‐Bomb',
      artists: [{ name: 'Analog Brothers' }, { name: 'DJ Cisco' }, { name: 'H‐Bomb' }],
    });
  });

  it('reads a WS/2 recording document as one song', async () => {
    const file = join(shared, 'ws2-recording_isrc_picard-recording.json');
    const { calls, report } = await read(file);
    expect(calls).toEqual([
      {
        call: 'song',
        unit: { where: file, created: '', digest: sha256(readFileSync(file)) },
        song: {
          id: 'cb2cc207-8125-445c-9ef9-6ea44eee959a',
          name: 'Thinking Out Loud',
          isrc: 'GBAHS1400099',
          durationMs: 281000,
          releaseDate: '2014-06-20',
          artists: [ED],
          artistName: 'Ed Sheeran',
        },
      },
    ]);
    expect(report.units).toEqual([{ kind: 'document', bytes: statSync(file).size }]);
  });

  it('reads the multi-disc WS/2 release: barcode, date, 2 media, 7 tracks', async () => {
    const file = join(shared, 'ws2-release_multidisc_picard-release_multidisc.json');
    const { calls, report } = await read(file);
    expect(calls).toHaveLength(1);
    expect(calls[0].unit).toEqual({ where: file, created: '', digest: sha256(readFileSync(file)) });
    const song = (id: string, name: string, durationMs: number, releaseDate: string) => ({ id, name, durationMs, releaseDate, artists: [] });
    expect(releases(calls)).toEqual([
      {
        id: '6c4f766f-3351-4c10-a53d-b119452c27b2',
        name: 'ケアレス',
        upc: '4547366518764',
        releaseDate: '2021-09-15',
        artists: [],
        tracks: [
          { discNumber: 1, trackNumber: 1, song: song('9e1bd108-5e69-41cf-b744-ff7731293403', 'ケアレス', 256000, '2021-08-08') },
          { discNumber: 1, trackNumber: 2, song: song('e7434e09-727e-4962-aa20-6c8b38431d31', 'Bye‐Bye Butterfly', 263000, '2021-09-15') },
          { discNumber: 1, trackNumber: 3, song: song('781f567c-04de-4690-81f8-b5e9396af231', 'Starry', 262000, '2021-09-15') },
          { discNumber: 1, trackNumber: 4, song: song('e337e1b6-818b-4923-9bf2-8256168ff95a', 'ケアレス -Instrumental-', 254000, '2021-09-15') },
          { discNumber: 2, trackNumber: 1, song: song('187a4c6f-3920-46ee-869a-30077ff7feb8', 'ケアレス (Music Video)', 249000, '2021-09-15') },
          { discNumber: 2, trackNumber: 2, song: song('5f6bf35e-98c4-4dad-af43-5b14c42544c8', 'ケアレス (15秒CM)', 14000, '2021-09-15') },
          { discNumber: 2, trackNumber: 3, song: song('1a7faef4-6f9c-4579-9770-4da2e05b247c', 'ケアレス (30秒メッセージコメント入りCM)', 29000, '2021-09-15') },
        ],
      },
    ]);
    expect(report.warnings).toEqual([]);
  });

  it('reads the WS/2 artist', async () => {
    const file = join(shared, 'ws2-artist_picard-artist.json');
    const { calls } = await read(file);
    expect(calls).toEqual([{ call: 'artist', unit: { where: file, created: '', digest: sha256(readFileSync(file)) }, artist: ED }]);
  });

  it('reads a directory of them in path order', async () => {
    const { calls } = await read(shared);
    expect(calls.map((c) => c.call)).toEqual([...Array(100).fill('song'), 'artist', 'song', 'release']);
  });
});

describe('hand-written MusicBrainz inputs', () => {
  const releaseFile = join(own, 'release.jsonl');
  const A = { id: 'b0000000-0000-4000-8000-00000000000a', name: 'A' };
  const B = { id: 'b0000000-0000-4000-8000-00000000000b', name: 'B' };
  const C = { id: 'b0000000-0000-4000-8000-00000000000c', name: 'Cee' };
  const D = { id: 'b0000000-0000-4000-8000-00000000000d', name: 'D' };
  const rid = (n: number) => `c0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  let plain: { calls: Call[]; report: MemoryReport };
  beforeAll(async () => {
    plain = await read(releaseFile);
  });

  it('maps a release: credits with join phrases, UPC, label, earliest event date, cover art, genres, tracks in disc and track order', () => {
    expect(releases(plain.calls)[0]).toEqual({
      id: 'a0000000-0000-4000-8000-000000000001',
      name: 'Hand Written',
      upc: '0602498681497',
      label: 'Hand Records',
      releaseDate: '1999',
      artworkUrl: 'https://coverartarchive.org/release/a0000000-0000-4000-8000-000000000001/front',
      genres: ['pop', 'electronic', 'rock'],
      artists: [A, B, C],
      artistName: 'A feat. B & C',
      tracks: [
        {
          discNumber: 1,
          trackNumber: 1,
          song: {
            id: rid(1),
            name: 'Track One',
            isrc: 'USAT20003751',
            durationMs: 239500,
            genres: ['pop', 'indie', 'rock'],
            artists: [D, A],
            artistName: 'Dee & A',
          },
        },
        {
          discNumber: 1,
          trackNumber: 2,
          song: { id: rid(2), name: 'Track Two (Live)', isrc: 'GBAHS1400099', durationMs: 181000, releaseDate: '1999-02', artists: [B], artistName: 'B' },
        },
        { discNumber: 2, trackNumber: 1, song: { id: rid(4), name: 'Side B One', durationMs: 200000, artists: [A, B, C], artistName: 'A feat. B & C' } },
      ],
    });
  });

  it('warns about what it leaves out: a bad barcode, bad dates, a bad ISRC, a repeated recording', () => {
    const at = (line: number) => `${releaseFile}:${line}`;
    expect(plain.report.warnings).toEqual([
      `${at(1)}: release-events[2].date: "1999-13-01" is not a real date (YYYY, YYYY-MM or YYYY-MM-DD); left out`,
      `${at(1)}: media[1].tracks[1].recording.first-release-date: "1999-13" is not a real date (YYYY, YYYY-MM or YYYY-MM-DD); left out`,
      `${at(1)}: media[1].tracks[0].recording.isrcs[0]: "not-an-isrc" is not an ISRC; left out`,
      `${at(1)}: media[0].tracks[1]: recording ${rid(1)} repeats on release a0000000-0000-4000-8000-000000000001; kept at its first place, disc 1 track 1`,
      `${at(2)}: barcode: "123456789013" is not a UPC-A or EAN-13 with a valid check digit; left out`,
      `${at(2)}: date: "2005-02-30" is not a real date (YYYY, YYYY-MM or YYYY-MM-DD); left out`,
    ]);
  });

  it('imports a release of any status, without media, and skips one without an id', () => {
    expect(releases(plain.calls)[1]).toEqual({
      id: 'a0000000-0000-4000-8000-000000000002',
      name: 'Bad Barcode',
      genres: ['jazz'],
      artists: [D],
      artistName: 'D',
      tracks: [],
    });
    expect(releases(plain.calls)).toHaveLength(2);
    expect(plain.report.skips).toEqual([`${releaseFile}:3: release: has no id`]);
    expect(plain.report.units.map((u) => u.kind)).toEqual(['line', 'line', 'line']);
    const lines = readFileSync(releaseFile, 'utf8').split('\n');
    expect(plain.calls.map((c) => c.unit)).toEqual([1, 2].map((n) => ({ where: `${releaseFile}:${n}`, created: '', digest: sha256(lines[n - 1]) })));
  });

  it('reads artists with their genres by count, then name', async () => {
    const { calls } = await read(join(own, 'artist.jsonl'));
    expect(calls.map((c) => (c.call === 'artist' ? c.artist : c.call))).toEqual([{ ...A, genres: ['soul', 'blues', 'jazz'] }, C]);
  });

  it('reads a WS/2 browse response: each release a unit of its own', async () => {
    const file = join(own, 'ws2-browse-releases.json');
    const { calls, report } = await read(file);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { releases: unknown[] };
    expect(calls).toEqual([
      {
        call: 'release',
        unit: { where: `${file}:releases[0]`, created: '', digest: sha256(JSON.stringify(doc.releases[0])) },
        album: {
          id: 'a0000000-0000-4000-8000-000000000003',
          name: 'Browsed',
          artists: [D],
          artistName: 'D',
          tracks: [{ discNumber: 1, trackNumber: 1, song: { id: rid(10), name: 'Only', durationMs: 100000, artists: [D], artistName: 'D' } }],
        },
      },
    ]);
    expect(report.units.map((u) => u.kind)).toEqual(['document']);
  });

  it('reads a search response’s items as units without a time, so its partial releases never outrank a dump’s', async () => {
    const dir = tempDir('omm-mb-');
    const file = join(dir, 'search.json');
    writeFileSync(
      file,
      JSON.stringify(
        { created: '2024-01-02T03:04:05.678Z', count: 1, offset: 0, recordings: [{ id: rid(11), score: 100, title: 'Found', length: 1000, video: false }] },
        null,
        1,
      ),
    );
    const { calls } = await read(file);
    expect(calls).toEqual([
      {
        call: 'song',
        unit: expect.objectContaining({ where: `${file}:recordings[0]`, created: '' }),
        song: { id: rid(11), name: 'Found', durationMs: 1000, artists: [] },
      },
    ]);
  });

  describe('compressed and archived inputs give the same calls as plain ones', () => {
    let dir: string;
    beforeAll(() => {
      dir = tempDir('omm-mb-');
    });
    /** The calls with `where` relative to the unit's file, so different containers compare. */
    const portable = (calls: Call[], prefix: string) =>
      calls.map((c) => {
        expect(c.unit.where.startsWith(`${prefix}:`)).toBe(true);
        return { ...c, unit: { ...c.unit, where: c.unit.where.slice(prefix.length) } };
      });
    const expected = () => portable(plain.calls, releaseFile);

    it('.gz (node:zlib)', async () => {
      const file = join(dir, 'release.jsonl.gz');
      writeFileSync(file, gzipSync(readFileSync(releaseFile)));
      const { calls, report } = await read(file);
      expect(portable(calls, file)).toEqual(expected());
      expect(report.warnings).toEqual(plain.report.warnings.map((w) => w.replaceAll(releaseFile, file)));
    });

    it.skipIf(!hasXz)(`.xz${hasXz ? '' : ' (skipped: no xz binary to make the input)'}`, async () => {
      const file = join(dir, 'release.jsonl.xz');
      writeFileSync(file, spawnSync('xz', ['-c', releaseFile]).stdout);
      const { calls } = await read(file);
      expect(portable(calls, file)).toEqual(expected());
    });

    /** A dump archive as MusicBrainz lays it out: mbdump/<entity> and the small files beside it. */
    const dumpTree = (): string => {
      const tree = join(dir, 'tree');
      mkdirSync(join(tree, 'mbdump'), { recursive: true });
      copyFileSync(releaseFile, join(tree, 'mbdump', 'release'));
      writeFileSync(join(tree, 'mbdump', 'label'), '{"id":"d0000000-0000-4000-8000-000000000001","name":"Hand Records"}\n');
      for (const name of ['TIMESTAMP', 'COPYING', 'README', 'SCHEMA_SEQUENCE', 'JSON_DUMPS_SCHEMA_NUMBER']) writeFileSync(join(tree, name), 'not JSON\n');
      return tree;
    };

    it.skipIf(!hasXz)(`.tar.xz, reading mbdump/release and leaving the rest${hasXz ? '' : ' (skipped: no xz binary to make the input)'}`, async () => {
      const tree = dumpTree();
      const tar = join(dir, 'release.tar');
      createTar({ cwd: tree, file: tar, sync: true, portable: true }, [
        'COPYING',
        'README',
        'SCHEMA_SEQUENCE',
        'TIMESTAMP',
        'JSON_DUMPS_SCHEMA_NUMBER',
        'mbdump',
      ]);
      const file = join(dir, 'release.tar.xz');
      writeFileSync(file, spawnSync('xz', ['-c', tar]).stdout);
      const { calls, report } = await read(file);
      expect(portable(calls, `${file}:mbdump/release`)).toEqual(expected());
      expect(calls[0].unit.where).toBe(`${file}:mbdump/release:1`);
      expect(report.warnings).toContain(`${file}:mbdump/label: label entities are not imported; member left out`);
    });

    it('.tar.gz', async () => {
      const tree = dumpTree();
      const file = join(dir, 'release.tar.gz');
      createTar({ cwd: tree, file, sync: true, gzip: true, portable: true }, ['TIMESTAMP', 'mbdump']);
      const { calls } = await read(file);
      expect(portable(calls, `${file}:mbdump/release`)).toEqual(expected());
    });
  });

  describe('errors name the file, line, column or field', () => {
    let dir: string;
    beforeAll(() => {
      dir = tempDir('omm-mb-');
    });
    const firstLine = () => readFileSync(releaseFile, 'utf8').split('\n')[0];
    const write = (name: string, text: string) => {
      const file = join(dir, name);
      writeFileSync(file, text);
      return file;
    };

    it('a line that is not JSON: E_IMPORT_SYNTAX at its line and column', async () => {
      const file = write('cut.jsonl', `${firstLine()}\n{"id":"a0000000-0000-4000-8000-000000000009","title":"Cut"\n`);
      const error = await failure(read(file));
      expect(error.code).toBe('E_IMPORT_SYNTAX');
      expect(error.place).toEqual({ file, line: 2, column: 59 });
      expect(error.message).toBe(`${file}:2:59: not JSON: Expected ',' or '}' after property value [E_IMPORT_SYNTAX]`);
    });

    it('a column counts characters, not bytes', async () => {
      const file = write('accent.jsonl', '{"title":"ケアレス" "x"}\n');
      expect((await failure(read(file))).place).toEqual({ file, line: 1, column: 17 });
    });

    it('a single document that is not JSON: the line and column in the document', async () => {
      const file = write('doc.json', '{\n  "id": "a0000000-0000-4000-8000-000000000009",\n  "title": "x" "y"\n}\n');
      expect((await failure(read(file))).place).toEqual({ file, line: 3, column: 16 });
    });

    it('a JSON value that is not a MusicBrainz entity: E_IMPORT_FORMAT at its line', async () => {
      const file = write('other.jsonl', `${firstLine()}\n{"id":"x","foo":1}\n`);
      const error = await failure(read(file));
      expect(error.code).toBe('E_IMPORT_FORMAT');
      expect(error.place).toEqual({ file, line: 2 });
      expect((await failure(read(write('array.jsonl', '[1,2]\n')))).code).toBe('E_IMPORT_FORMAT');
    });

    it('a recording in a release dump: E_IMPORT_FORMAT', async () => {
      const file = write('release', '{"id":"c0000000-0000-4000-8000-000000000001","title":"R","video":false}\n');
      expect((await failure(read(file))).message).toMatch(/a MusicBrainz recording in a release file/);
    });

    it('a length that is a string: E_IMPORT_VALUE with the field path', async () => {
      const release = JSON.parse(firstLine());
      const tracks = release.media[1].tracks;
      tracks.push({ ...tracks[0], position: 3, length: '3:00' });
      const file = write('typed.jsonl', `${JSON.stringify(release)}\n`);
      const error = await failure(read(file));
      expect(error.code).toBe('E_IMPORT_VALUE');
      expect(error.place).toEqual({ file, line: 1, path: 'media[1].tracks[2].length' });
      release.media = { tracks: [] };
      expect((await failure(read(write('media.jsonl', `${JSON.stringify(release)}\n`)))).place).toEqual({
        file: join(dir, 'media.jsonl'),
        line: 1,
        path: 'media',
      });
    });

    it('a corrupt or missing input: E_IMPORT_IO', async () => {
      const gz = write('broken.jsonl.gz', 'not gzip at all');
      expect((await failure(read(gz))).code).toBe('E_IMPORT_IO');
      expect((await failure(read(join(dir, 'nothing-here.jsonl')))).code).toBe('E_IMPORT_IO');
    });

    it.skipIf(!hasXz)(`a truncated .tar.xz: E_IMPORT_IO${hasXz ? '' : ' (skipped: no xz binary)'}`, async () => {
      const big = Array.from({ length: 2000 }, () => firstLine()).join('\n');
      const tree = join(dir, 'trunc');
      mkdirSync(join(tree, 'mbdump'), { recursive: true });
      writeFileSync(join(tree, 'mbdump', 'release'), big);
      createTar({ cwd: tree, file: join(dir, 'trunc.tar'), sync: true }, ['mbdump']);
      const whole = spawnSync('xz', ['-c', join(dir, 'trunc.tar')]).stdout;
      const file = write('trunc.tar.xz', '');
      writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 2)));
      const error = await failure(read(file));
      expect(error.code).toBe('E_IMPORT_IO');
      expect(error.place.file).toMatch(/trunc\.tar\.xz/);
    });
  });

  it('walks directories in path order, reading JSON and dump files and warning about others', async () => {
    const dir = tempDir('omm-mb-');
    mkdirSync(join(dir, 'b'));
    mkdirSync(join(dir, 'mbdump'));
    copyFileSync(join(own, 'artist.jsonl'), join(dir, 'b', 'artist.jsonl'));
    copyFileSync(releaseFile, join(dir, 'mbdump', 'release'));
    writeFileSync(join(dir, 'mbdump', 'TIMESTAMP'), '2024-01-01\n');
    writeFileSync(join(dir, 'notes.txt'), 'hello\n');
    writeFileSync(join(dir, 'mbdump', 'work'), '{}\n');
    const { calls, report } = await read(dir);
    expect(calls.map((c) => c.unit.where)).toEqual([
      `${dir}/b/artist.jsonl:1`,
      `${dir}/b/artist.jsonl:2`,
      `${dir}/mbdump/release:1`,
      `${dir}/mbdump/release:2`,
    ]);
    expect(report.warnings.filter((w) => !w.startsWith(`${dir}/mbdump/release:`))).toEqual([
      `${dir}/mbdump/work: work entities are not imported; file left out`,
      `${dir}/notes.txt: not a JSON, MusicBrainz dump or tar file; left out`,
    ]);
  });
});

describe('a MusicBrainz import, compiled and served', () => {
  let server: TestServer;
  beforeAll(async () => {
    const raw = join(tempDir('omm-mb-'), 'raw');
    const inputs = [join(own, 'release.jsonl'), join(own, 'artist.jsonl')];
    await runStreamedImport('MusicBrainz', { out: raw, inputs, progress: null }, (sink, report) => readMusicBrainz(inputs, sink, report));
    server = await serveRaw(raw);
  });
  afterAll(async () => {
    await server?.close();
  });

  // Two songs of the hand-written release: disc 1 track 1 credited on the recording (D before A:
  // credit order, not name order), disc 1 track 2 credited on the track only.
  const expected = [
    { isrc: 'USAT20003751', name: 'Track One', artistName: 'Dee & A', artists: ['D', 'A'], track: 1, disc: 1, durationMs: 239500 },
    { isrc: 'GBAHS1400099', name: 'Track Two (Live)', artistName: 'B', artists: ['B'], track: 2, disc: 1, durationMs: 181000 },
  ];
  const album = { id: 'a0000000-0000-4000-8000-000000000001', name: 'Hand Written', upc: '0602498681497' };

  it.each(expected)('interface 1 finds $isrc with its title, artists in order, album, UPC, track and duration', async (song) => {
    const r = await server.get(`/v1/songs/lookup?isrc=${song.isrc}&include=albums,artists`);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    const [found] = r.body.data;
    expect(found.attributes).toMatchObject({
      name: song.name,
      isrc: song.isrc,
      artistName: song.artistName,
      albumName: album.name,
      trackNumber: song.track,
      discNumber: song.disc,
      durationMs: song.durationMs,
    });
    expect(found.relationships.artists.data.map((a: { attributes: { name: string } }) => a.attributes.name)).toEqual(song.artists);
    expect(
      found.relationships.albums.data.map((a: { id: string; attributes: { name: string; upc: string } }) => [a.id, a.attributes.name, a.attributes.upc]),
    ).toEqual([[album.id, album.name, album.upc]]);
  });

  it.each(expected)('interface 2 finds $isrc with the same', async (song) => {
    const r = await server.get(`/openmusic/songs?isrc=${song.isrc}&include=albums,artists`);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    const [found] = r.body.data;
    expect(found.attributes).toMatchObject({
      name: song.name,
      isrc: song.isrc,
      artist_name: song.artistName,
      album_name: album.name,
      track_number: song.track,
      disc_number: song.disc,
    });
    expect(found.instance.duration_in_ms).toBe(song.durationMs);
    expect(found.relationships.artists.map((a: { attributes: { name: string } }) => a.attributes.name)).toEqual(song.artists);
    expect(
      found.relationships.albums.map((a: { id: string; attributes: { name: string; upc: string } }) => [a.id, a.attributes.name, a.attributes.upc]),
    ).toEqual([[album.id, album.name, album.upc]]);
  });
});
