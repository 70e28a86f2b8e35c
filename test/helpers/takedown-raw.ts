import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvField } from '../../src/raw/csv-writer.js';
import { readRawTable } from './raw-fixture.js';

/** Local ids taken down, per type. */
export interface TakenIds {
  readonly song: ReadonlySet<string>;
  readonly album: ReadonlySet<string>;
  readonly artist: ReadonlySet<string>;
}

/** Which id column of each raw file names a song, album or artist. */
const REFS: Record<string, [column: string, type: keyof TakenIds][]> = {
  songs: [['id', 'song']],
  albums: [['id', 'album']],
  artists: [['id', 'artist']],
  album_artists: [
    ['album_id', 'album'],
    ['artist_id', 'artist'],
  ],
  song_artists: [
    ['song_id', 'song'],
    ['artist_id', 'artist'],
  ],
  album_tracks: [
    ['album_id', 'album'],
    ['song_id', 'song'],
  ],
  files: [['song_id', 'song']],
  lyrics: [['song_id', 'song']],
  playlist_tracks: [['song_id', 'song']],
  station_tracks: [['song_id', 'song']],
};

/**
 * The raw catalog a full re-import would give once the taken-down releases are gone: `from`'s
 * files with every row naming a taken-down song, album or artist left out (explore items of
 * song, album and artist groups too), into `to`.
 */
export function rawWithout(from: string, to: string, taken: TakenIds): void {
  const hasGroups = readdirSync(from).includes('explore_groups.csv');
  const groupTypes = new Map(hasGroups ? readRawTable(from, 'explore_groups').map((g) => [g.id, g.type as keyof TakenIds]) : []);
  for (const name of readdirSync(from).filter((f) => f.endsWith('.csv'))) {
    const file = name.slice(0, -4);
    const rows = readRawTable(from, file);
    const headerLine = readFileSync(join(from, name), 'utf8').split(/\r?\n/, 1)[0];
    const header = headerLine.split(',');
    const kept = rows.filter((row) => {
      for (const [column, type] of REFS[file] ?? []) if (taken[type].has(row[column])) return false;
      if (file === 'explore_items') {
        const type = groupTypes.get(row.group_id);
        if (type && taken[type]?.has(row.resource_id)) return false;
      }
      return true;
    });
    const lines = kept.map((row) => header.map((h) => csvField(row[h] === '' ? null : row[h])).join(','));
    writeFileSync(join(to, name), `${[headerLine, ...lines].join('\n')}\n`);
  }
}
