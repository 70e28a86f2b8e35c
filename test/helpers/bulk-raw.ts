import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './raw-fixture.js';

/** A plain raw catalog of `songs` songs (10 per album, 1 artist per 5 albums), for tests that need bulk. */
export function writeBulkRaw(songs: number, dir = tempDir('omm-bulk-')): string {
  const albums = Math.ceil(songs / 10);
  const artists = Math.ceil(albums / 5);
  const lines = (header: string, n: number, row: (i: number) => string) => {
    const out = [header];
    for (let i = 0; i < n; i++) out.push(row(i));
    return `${out.join('\n')}\n`;
  };
  writeFileSync(
    join(dir, 'artists.csv'),
    lines('id,name,genres,popularity', artists, (i) => `ar${i},Artist ${i},Genre ${i % 7},${i % 100}`),
  );
  writeFileSync(
    join(dir, 'albums.csv'),
    lines('id,name,release_date', albums, (i) => `al${i},Album ${i},${1960 + (i % 60)}`),
  );
  writeFileSync(
    join(dir, 'album_artists.csv'),
    lines('album_id,artist_id', albums, (i) => `al${i},ar${Math.floor(i / 5)}`),
  );
  writeFileSync(
    join(dir, 'songs.csv'),
    lines('id,name,duration_ms,popularity', songs, (i) => `s${i},Song number ${i} of the bulk,${120000 + i},${(i * 7919) % 1000}`),
  );
  writeFileSync(
    join(dir, 'album_tracks.csv'),
    lines('album_id,song_id,track_number', songs, (i) => `al${Math.floor(i / 10)},s${i},${(i % 10) + 1}`),
  );
  return dir;
}
