import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importChinook } from '../src/import/chinook.js';
import { importExportify } from '../src/import/exportify.js';
import { importMostStreamed } from '../src/import/most-streamed.js';
import { readRawTable, tempDir } from './helpers/raw-fixture.js';

// The CSV importers' --merge by the rules the streamed importers' --into follows: a later
// source's word wins, merging twice changes nothing, A then B is A and B together, and a failed
// merge leaves the raw catalog as it was.

const fixtures = join(import.meta.dirname, 'fixtures');
const liked = join(fixtures, 'exportify', 'liked.csv');
const other = join(fixtures, 'exportify', '樂舒簡.csv');
const chinook = join(fixtures, 'chinook', 'ChinookData.json');
const chart = join(fixtures, 'most-streamed', 'Most Streamed Spotify Songs 2024 (sample).csv');

/** Every file of a raw directory, name -> bytes as text. */
function files(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  );
}

describe('the CSV importers merge by the later word', () => {
  it('merging A then B writes what importing A and B together does, and merging again changes nothing', async () => {
    const together = tempDir('omm-merge-');
    await importExportify([liked, other], together);
    const oneByOne = tempDir('omm-merge-');
    await importExportify([liked], oneByOne);
    await importExportify([other], oneByOne, { merge: true });
    expect(files(oneByOne)).toEqual(files(together));
    await importExportify([other], oneByOne, { merge: true });
    await importExportify([liked, other], oneByOne, { merge: true });
    expect(files(oneByOne)).toEqual(files(together));
    const charts = tempDir('omm-merge-');
    await importChinook(chinook, charts);
    await importMostStreamed(chart, charts, { merge: true });
    const once = files(charts);
    await importChinook(chinook, charts, { merge: true });
    await importMostStreamed(chart, charts, { merge: true });
    expect(files(charts)).toEqual(once);
  });

  it('a playlist exported again replaces its tracks, and a song said again its row', async () => {
    const raw = tempDir('omm-merge-');
    await importExportify([liked], raw);
    const playlistId = readRawTable(raw, 'playlists')[0].id;
    const before = readRawTable(raw, 'playlist_tracks').filter((t) => t.playlist_id === playlistId);
    // The same playlist exported later: its first two tracks gone, the third renamed.
    const [header, first, second, third, ...rest] = readFileSync(liked, 'utf8').split('\n');
    const later = join(tempDir('omm-export-'), 'liked.csv');
    writeFileSync(later, [header, third.replace(/^("spotify:track:[^"]+"),"[^"]*"/, '$1,"Renamed"'), ...rest].join('\n'));
    expect(first.length * second.length).toBeGreaterThan(0);
    await importExportify([later], raw, { merge: true });
    const after = readRawTable(raw, 'playlist_tracks').filter((t) => t.playlist_id === playlistId);
    expect(after.map((t) => t.song_id)).toEqual(before.slice(2).map((t) => t.song_id));
    expect(after.map((t) => t.position)).toEqual(after.map((_, i) => String(i + 1)));
    const renamed = /^"spotify:track:([^"]+)"/.exec(third)![1];
    expect(readRawTable(raw, 'songs').find((s) => s.id === renamed)?.name).toBe('Renamed');
  });

  it('a merge that fails leaves the raw catalog byte for byte as it was, and no work directory', async () => {
    const raw = tempDir('omm-merge-');
    await importExportify([liked], raw);
    const before = files(raw);
    // A large good export first (its rows more than a writer buffers), then a broken one.
    const exports = tempDir('omm-export-');
    const [header, ...rows] = readFileSync(other, 'utf8').trim().split('\n');
    const many = Array.from({ length: 20000 }, (_, i) => rows[i % rows.length].replace(/^"spotify:track:([^"]+)"/, `"spotify:track:$1x${i}"`));
    writeFileSync(join(exports, 'big.csv'), [header, ...many].join('\n'));
    const bad = join(exports, 'bad.csv');
    writeFileSync(bad, readFileSync(other, 'utf8').replace('"Track URI"', '"Not A Column"'));
    await expect(importExportify([join(exports, 'big.csv'), bad], raw, { merge: true })).rejects.toThrow(
      /bad\.csv: not an Exportify export \(missing Track URI\)/,
    );
    expect(files(raw)).toEqual(before);
    expect(readdirSync(dirname(raw)).filter((f) => f.startsWith(`.${raw.split('/').pop()}.import-`))).toEqual([]);
  });
});
