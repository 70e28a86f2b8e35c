import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../src/import/import-error.js';
import { runStreamedImport } from '../src/import/stage/run-import.js';
import { normalisedCreated, unitDigest } from '../src/import/stage/source-unit.js';
import type { CatalogSink, SourceUnit, StagedAlbum, StagedSong } from '../src/import/stage/staged.js';
import { tempDir } from './helpers/raw-fixture.js';

const unit = (name: string, created: string): SourceUnit => ({ where: name, created: normalisedCreated(created)!, digest: unitDigest(name) });
const artist = (id: string) => ({ id, name: `Artist ${id}` });
const song = (id: string, name: string, artists = ['a1']): StagedSong => ({ id, name, isrc: id, durationMs: 180000, artists: artists.map(artist) });
const album = (id: string, tracks: StagedSong[], extra: Partial<StagedAlbum> = {}): StagedAlbum => ({
  id,
  name: `Album ${id}`,
  artists: [artist('a1')],
  tracks: tracks.map((s, i) => ({ song: s, discNumber: 1, trackNumber: i + 1 })),
  ...extra,
});
/** The raw CSV files of a directory (not the import state beside them), by name. */
const csv = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.csv'))
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  );
const run = (out: string, calls: (sink: CatalogSink) => void, memoryBytes?: number) =>
  runStreamedImport('test', { out, progress: null, memoryBytes }, async (sink) => calls(sink));

const m1 = unit('m1.xml', '2024-01-01T10:00:00Z');
const m2 = unit('m2.xml', '2024-02-01T10:00:00+01:00');
const m3 = unit('m3.xml', '2024-03-01T00:00:00.1234567Z');

describe('the catalog stage of streamed imports', () => {
  it('normalises creation times to UTC text that sorts by time', () => {
    expect(normalisedCreated('2024-02-01T10:00:00+01:00')).toBe('2024-02-01T09:00:00.0000000Z');
    expect(normalisedCreated('2019-05-03T11:44:26.1234567')).toBe('2019-05-03T11:44:26.1234567Z');
    expect(normalisedCreated('2024-01-01')).toBe('2024-01-01T00:00:00.0000000Z');
    expect(normalisedCreated('yesterday')).toBeNull();
  });

  it('keeps the latest word on a release: its tracks replace the earlier ones, and songs no release keeps are dropped', async () => {
    const out = join(tempDir(), 'raw');
    const summary = await run(out, (sink) => {
      sink.release(m2, album('R1', [song('S1', 'One (Remastered)'), song('S3', 'Three')], { upc: '036000291452' }));
      sink.release(m1, album('R1', [song('S1', 'One'), song('S2', 'Two')]));
    });
    const files = csv(out);
    expect(files['albums.csv']).toContain('R1,Album R1,,036000291452');
    expect(files['album_tracks.csv']).toBe('album_id,song_id,disc_number,track_number\nR1,S1,1,1\nR1,S3,1,2\n');
    expect(files['songs.csv']).toContain('S1,One (Remastered),,S1,180000');
    expect(files['songs.csv']).not.toContain('S2');
    expect(summary).toMatchObject({ releases: 2, releasesReplaced: 1, songsDropped: 1, rows: { albums: 1, songs: 2, artists: 1 } });
  });

  it('writes the same bytes whatever order the units come in, whatever the memory', async () => {
    const calls: ((sink: CatalogSink) => void)[] = [
      (sink) => sink.release(m1, album('R1', [song('S1', 'One'), song('S2', 'Two', ['a2', 'a1'])])),
      (sink) => sink.release(m2, album('R2', [song('S2', 'Two'), song('S4', 'Four', ['a3'])], { artists: [artist('a3')] })),
      (sink) => sink.takedown(m3, 'R1'),
      (sink) => sink.release(m1, album('R3', [song('S5', 'Five')])),
    ];
    const a = join(tempDir(), 'raw');
    const b = join(tempDir(), 'raw');
    await run(a, (sink) => calls.forEach((c) => c(sink)));
    await run(b, (sink) => [...calls].reverse().forEach((c) => c(sink)), 64 * 1024);
    expect(csv(b)).toEqual(csv(a));
    // R1 taken down: S1 was only there; S2 stays through R2 with the latest credits R2 gave it.
    expect(
      csv(a)
        ['albums.csv'].split('\n')
        .map((l) => l.split(',')[0]),
    ).toEqual(['id', 'R2', 'R3', '']);
    expect(csv(a)['songs.csv']).not.toMatch(/^S1,/m);
    expect(csv(a)['song_artists.csv']).toBe('song_id,artist_id,position\nS2,a1,1\nS4,a3,1\nS5,a1,1\n');
  });

  it('spills to disk under a small budget and gives the same result as in memory', async () => {
    const many = (sink: CatalogSink) => {
      for (let r = 0; r < 300; r++) {
        const tracks = Array.from({ length: 12 }, (_, t) => song(`S${r}x${t}`, `Song ${r} ${t}`, [`a${r % 17}`, `a${(r + 1) % 17}`]));
        sink.release(unit(`m${r}.xml`, `2024-01-01T00:00:${String(r % 60).padStart(2, '0')}Z`), album(`R${r}`, tracks));
      }
    };
    const small = join(tempDir(), 'raw');
    const large = join(tempDir(), 'raw');
    await run(small, many, 64 * 1024);
    await run(large, many);
    expect(csv(small)).toEqual(csv(large));
    expect(csv(small)['album_tracks.csv'].trimEnd().split('\n')).toHaveLength(3600 + 1);
  });

  it('a takedown loses to a later delivery of the same release', async () => {
    const out = join(tempDir(), 'raw');
    const summary = await run(out, (sink) => {
      sink.takedown(m2, 'R1');
      sink.release(m1, album('R1', [song('S1', 'One')]));
      sink.release(m3, album('R1', [song('S1', 'One again')]));
    });
    expect(csv(out)['songs.csv']).toContain('One again');
    expect(summary.albumsTakenDown).toBe(0);
  });

  it('keeps recordings and artists delivered on their own, and the first of a recording listed twice', async () => {
    const out = join(tempDir(), 'raw');
    const summary = await run(out, (sink) => {
      sink.song(m1, song('S9', 'Alone', ['a9']));
      sink.artist(m1, { id: 'a8', name: 'Nobody credits me', genres: ['Jazz'] });
      sink.release(m1, {
        ...album('R1', []),
        tracks: [
          { song: song('S1', 'One'), discNumber: 1, trackNumber: 1 },
          { song: song('S1', 'One'), discNumber: 1, trackNumber: 2 },
          { song: song('S2', 'Two'), discNumber: 1, trackNumber: 1 },
        ],
      });
    });
    const files = csv(out);
    expect(files['songs.csv']).toMatch(/^S9,Alone,/m);
    expect(files['artists.csv']).toContain('a8,Nobody credits me,,,Jazz');
    expect(files['album_tracks.csv']).toBe('album_id,song_id,disc_number,track_number\nR1,S1,1,1\n');
    expect(summary.warningCount).toBe(2);
  });

  it('publishes nothing when the import fails, and leaves the previous output as it was', async () => {
    const out = join(tempDir(), 'raw');
    await run(out, (sink) => sink.release(m1, album('R1', [song('S1', 'One')])));
    const before = csv(out);
    await expect(
      run(out, (sink) => {
        sink.release(m2, album('R2', [song('S2', 'Two')]));
        throw new ImportError('E_IMPORT_SYNTAX', { file: 'bad.xml', line: 3, column: 7 }, 'unexpected end');
      }),
    ).rejects.toThrow('bad.xml:3:7: unexpected end [E_IMPORT_SYNTAX]');
    expect(csv(out)).toEqual(before);
    expect(readdirSync(dirname(out))).toEqual(['raw']);
    const fresh = join(tempDir(), 'never');
    await expect(
      run(fresh, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(existsSync(fresh)).toBe(false);
    expect(readdirSync(dirname(fresh))).toEqual([]);
  });

  it('fails under --strict where it would skip, naming where', async () => {
    const out = join(tempDir(), 'raw');
    const attempt = runStreamedImport('test', { out, progress: null, strict: true }, async (_sink, report) =>
      report.skip('m1.xml: SoundRecording[2]', 'track "Two"', 'no ISRC'),
    );
    await expect(attempt).rejects.toMatchObject({
      code: 'E_IMPORT_SKIPPED',
      message: 'm1.xml: SoundRecording[2]: track "Two": no ISRC (--strict fails instead of skipping) [E_IMPORT_SKIPPED]',
    });
    expect(existsSync(out)).toBe(false);
    const counted = await runStreamedImport('test', { out, progress: null }, async (_sink, report) => report.skip('m1.xml', 'track "Two"', 'no ISRC'));
    expect(counted).toMatchObject({ skipped: 1, skippedBy: { 'no ISRC': 1 }, skips: ['m1.xml: track "Two" skipped: no ISRC'] });
  });

  it('refuses to replace a directory that is not a raw catalog, and clears work left by a killed import', async () => {
    const parent = tempDir();
    const home = join(parent, 'home');
    mkdirSync(home);
    writeFileSync(join(home, 'notes.txt'), 'mine');
    await expect(run(home, () => {})).rejects.toMatchObject({ code: 'E_IMPORT_IO' });
    expect(readFileSync(join(home, 'notes.txt'), 'utf8')).toBe('mine');
    const abandoned = join(parent, '.raw.import-999999999-x');
    mkdirSync(join(abandoned, 'spill'), { recursive: true });
    await run(join(parent, 'raw'), (sink) => sink.release(m1, album('R1', [song('S1', 'One')])));
    expect(readdirSync(parent).sort()).toEqual(['home', 'raw']);
  });
});
