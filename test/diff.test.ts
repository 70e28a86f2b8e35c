import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { SMALL_CATALOG, tempDir, writeRaw } from './helpers/raw-fixture.js';

const omm = fileURLToPath(new URL('../bin/omm', import.meta.url));
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [omm, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

/**
 * The new side of the diff: song 102 removed, 104 added, 101 renamed, 103 given a new catalog
 * id, album 11's genre changed; everything else as in SMALL_CATALOG.
 */
const NEXT = {
  ...SMALL_CATALOG,
  songs: [
    'id,name,omm_id,isrc,duration_ms,genres,release_date,artwork_url,popularity,date_added',
    '100,Song A,,us-rc1-76-07839,200000,,,,5,2020-01-05',
    '101,"Song, B (Live)",,USRC17607840,180000,,,,9,2020-01-04',
    '103,"Quote ""Q""",zzzzzzzzzzzzzzzz,GBAYE0000351,90000,Jazz,2015-03-03,https://img.example.com/s103.jpg,100,2019-12-31',
    '104,Brand New,,,120000,Jazz,,,4,2023-01-01',
  ].join('\n'),
  album_tracks: ['album_id,song_id,disc_number,track_number', '10,100,1,1', '10,101,1,2', '12,100,1,1', '12,103,2,1', '12,104,2,2'].join('\n'),
  station_tracks: ['station_id,song_id,position', 'focus,101,2'].join('\n'),
};

describe('omm diff', () => {
  let oldDist: string;
  let newDist: string;
  let newRaw: string;
  beforeAll(async () => {
    oldDist = tempDir('omm-diff-old-');
    newDist = tempDir('omm-diff-new-');
    newRaw = writeRaw(NEXT);
    await compileCatalog({ rawDir: writeRaw(SMALL_CATALOG), outDir: oldDist });
    await compileCatalog({ rawDir: newRaw, outDir: newDist });
  });

  it('reports added, removed, changed records, changed ids and genre deltas as JSON', () => {
    const r = run('diff', oldDist, newDist, '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.identical).toBe(false);
    const songs = report.types.songs;
    expect(songs).toMatchObject({ old: 4, new: 4, added: 1, removed: 1, changed: 2, changedIds: 1 });
    expect(songs.samples.added).toEqual(['104']);
    expect(songs.samples.removed).toEqual(['102']);
    const renamed = songs.samples.changed.find((c: { id: string }) => c.id === '101');
    expect(renamed.fields).toEqual([{ field: 'name', old: 'Song, B', new: 'Song, B (Live)' }]);
    expect(songs.samples.changedIds).toEqual([{ id: '103', old: expect.stringMatching(/^omm:song:[0-9a-z]{16}$/), new: 'omm:song:zzzzzzzzzzzzzzzz' }]);
    // Album 11 lost its only track; album 12 gained one.
    expect(report.types.albums.changed).toBe(2);
    expect(report.types.artists).toMatchObject({ added: 0, removed: 0, changed: 0 });
    expect(report.totals).toEqual({ added: 1, removed: 1, changed: 4, changedIds: 1 });
    expect(report.genres).toEqual(expect.arrayContaining([{ genre: 'Jazz', old: 1, new: 2, delta: 1 }]));
    expect(report.failed).toEqual([]);
  });

  it('flags a changed catalog id loudly in text and Markdown', () => {
    const text = run('diff', oldDist, newDist);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/!!! 1 CATALOG ID\(S\) CHANGED/);
    expect(text.stdout).toMatch(/songs 103: omm:song:[0-9a-z]{16} -> omm:song:zzzzzzzzzzzzzzzz/);
    expect(text.stdout).toMatch(/name: "Song, B" -> "Song, B \(Live\)"/);
    const md = run('diff', oldDist, newDist, '--markdown');
    expect(md.stdout).toMatch(/^### Catalog diff: `[0-9a-z]+` → `[0-9a-z]+`/);
    expect(md.stdout).toContain('| songs | 4 | 4 | 1 | 1 | 2 | **1** |');
    expect(md.stdout).toContain('> [!WARNING]');
  });

  it('sets the exit code from --fail-on rules', () => {
    const tripped = run('diff', oldDist, newDist, '--fail-on', 'removed>0,changed-ids>0,songs.added>=5');
    expect(tripped.code).toBe(1);
    expect(tripped.stdout).toContain('FAIL removed>0 (value 1)');
    expect(tripped.stdout).toContain('FAIL changed-ids>0 (value 1)');
    expect(tripped.stdout).not.toContain('songs.added');
    expect(run('diff', oldDist, newDist, '--fail-on', 'removed>1,albums.changed>2').code).toBe(0);
    const bad = run('diff', oldDist, newDist, '--fail-on', 'vanished>0');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown metric "vanished"/);
    expect(run('diff', oldDist, tempDir()).code).toBe(2);
  });

  it('compares a snapshot with a raw directory, and a snapshot with itself', () => {
    const raw = run('diff', oldDist, newRaw, '--json');
    expect(raw.code).toBe(0);
    expect(JSON.parse(raw.stdout).totals).toEqual({ added: 1, removed: 1, changed: 4, changedIds: 1 });
    const same = JSON.parse(run('diff', newDist, newDist, '--json').stdout);
    expect(same.identical).toBe(true);
    expect(same.totals).toEqual({ added: 0, removed: 0, changed: 0, changedIds: 0 });
  });
});
