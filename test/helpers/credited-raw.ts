import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A song of a matcher test's catalog: its credited artists by index into the artist names. */
export interface CreditedSong {
  readonly id: string;
  readonly name: string;
  readonly artists: readonly number[];
  readonly popularity: number;
  /** Its track number, and its duration's last digits (180000 + track ms). */
  readonly track: number;
}

/**
 * The raw catalog of the matcher's tests: one artist per name (ar<i>, popularity 100 - i), an
 * album each (al<i>), every song on its first artist's album and credited in order.
 */
export function writeCreditedRaw(dir: string, artistNames: readonly string[], songs: readonly CreditedSong[]): void {
  mkdirSync(dir, { recursive: true });
  const write = (file: string, header: string, lines: string[]) => writeFileSync(join(dir, file), `${[header, ...lines].join('\n')}\n`);
  write(
    'artists.csv',
    'id,name,popularity',
    artistNames.map((name, i) => `ar${i},${name},${100 - i}`),
  );
  write(
    'albums.csv',
    'id,name,release_date',
    artistNames.map((_, i) => `al${i},Album ${i},2001`),
  );
  write(
    'album_artists.csv',
    'album_id,artist_id',
    artistNames.map((_, i) => `al${i},ar${i}`),
  );
  write(
    'songs.csv',
    'id,name,duration_ms,popularity',
    songs.map((s) => `${s.id},${s.name},${180000 + s.track},${s.popularity}`),
  );
  write(
    'album_tracks.csv',
    'album_id,song_id,track_number',
    songs.map((s) => `al${s.artists[0]},${s.id},${s.track}`),
  );
  write(
    'song_artists.csv',
    'song_id,artist_id,position',
    songs.flatMap((s) => s.artists.map((a, position) => `${s.id},ar${a},${position}`)),
  );
}

/** A song before numbered gives it an id and a track. */
export interface Song {
  readonly name: string;
  readonly artists: readonly number[];
  readonly popularity: number;
}

/** Songs listed in order as s0, s1, ... with track numbers 1, 2, ... */
export function numbered(songs: readonly Song[]): CreditedSong[] {
  return songs.map((s, i) => ({ ...s, id: `s${i}`, track: i + 1 }));
}
