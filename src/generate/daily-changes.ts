import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CsvParser } from '../raw/csv-parser.js';
import { csvField } from '../raw/csv-writer.js';

/**
 * A day's changes to a generated raw catalog, as `omm import --into` would leave it after a
 * delivery: what the segments' tests and benchmarks (docs/segments.md) apply between compiles.
 * The catalog is held in memory: for catalogs of a few million rows at most.
 */

/** A raw catalog in memory: file (without `.csv`) -> header and rows of header name -> cell. */
export interface RawTables {
  readonly headers: Map<string, string[]>;
  readonly rows: Map<string, Record<string, string>[]>;
}

export function readRawTables(dir: string): RawTables {
  const headers = new Map<string, string[]>();
  const rows = new Map<string, Record<string, string>[]>();
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.csv'))) {
    const file = name.slice(0, -4);
    headers.set(file, readFileSync(join(dir, name), 'utf8').split(/\r?\n/, 1)[0].split(','));
    rows.set(file, readRawCsv(join(dir, name)));
  }
  return { headers, rows };
}

/** A raw CSV file as rows of header name -> cell text. */
export function readRawCsv(path: string): Record<string, string>[] {
  const rows: string[][] = [];
  const parser = new CsvParser((cells) => {
    rows.push(cells);
  });
  parser.push(readFileSync(path));
  parser.end();
  const [names, ...body] = rows;
  return body.map((r) => Object.fromEntries(r.map((v, i) => [names[i], v])));
}

export function writeRawTables(tables: RawTables, dir: string): void {
  for (const [file, header] of tables.headers) {
    const lines = (tables.rows.get(file) ?? []).map((row) => header.map((h) => csvField(row[h] === '' || row[h] === undefined ? null : row[h])).join(','));
    writeFileSync(join(dir, `${file}.csv`), `${[header.join(','), ...lines].join('\n')}\n`);
  }
}

/**
 * A delivery applied to a generated raw catalog, as `omm import --into` would leave it: albums
 * taken down with their tracks, songs renamed and re-ranked, an artist renamed, a new release by
 * a new artist (one of its songs sharing an existing song's ISRC), and a new track on an existing
 * album. `round` varies which rows each change picks, so deliveries can follow one another.
 */
/** How often each change falls: one album in `takedown` taken down, one song in `rename` renamed, one in `rerank` re-ranked. */
export interface ChangeRates {
  readonly takedown: number;
  readonly rename: number;
  readonly rerank: number;
}

/** A heavy day, for small test catalogs: 6% of albums taken down, 3% of songs renamed, 8% re-ranked. */
export const TEST_RATES: ChangeRates = { takedown: 17, rename: 31, rerank: 13 };
/** About the daily delivery: 0.5% of albums taken down, 1% of songs renamed, 1% re-ranked. */
export const DAILY_RATES: ChangeRates = { takedown: 200, rename: 100, rerank: 100 };

export function applyDailyChanges(tables: RawTables, round: number, rates: ChangeRates = TEST_RATES): RawTables {
  const rows = new Map([...tables.rows].map(([file, list]) => [file, list.map((r) => ({ ...r }))]));
  const get = (file: string) => rows.get(file) ?? [];
  const set = (file: string, list: Record<string, string>[]) => rows.set(file, list);
  const albums = get('albums');
  const gone = new Set(albums.filter((_, i) => i % rates.takedown === round % rates.takedown).map((a) => a.id));
  const goneSongs = new Set(
    get('album_tracks')
      .filter((t) => gone.has(t.album_id))
      .map((t) => t.song_id),
  );
  const keep = (file: string, column: string, ids: Set<string>) =>
    set(
      file,
      get(file).filter((r) => !ids.has(r[column])),
    );
  keep('albums', 'id', gone);
  keep('album_artists', 'album_id', gone);
  keep('album_tracks', 'album_id', gone);
  keep('explore_items', 'resource_id', gone);
  for (const [file, column] of [
    ['songs', 'id'],
    ['song_artists', 'song_id'],
    ['files', 'song_id'],
    ['lyrics', 'song_id'],
    ['playlist_tracks', 'song_id'],
    ['station_tracks', 'song_id'],
    ['explore_items', 'resource_id'],
    ['album_tracks', 'song_id'],
  ]) {
    keep(file, column, goneSongs);
  }
  get('songs').forEach((s, i) => {
    if (i % rates.rename === round % rates.rename) s.name = `${s.name} (Remastered ${round})`;
    if (i % rates.rerank === round % rates.rerank) s.popularity = String(Number(s.popularity || 0) + 500 + round);
  });
  const artists = get('artists');
  const renamed = artists[(7 * round + 3) % artists.length];
  renamed.name = `${renamed.name} Revisited`;
  addRelease(rows, round);
  return { headers: tables.headers, rows };
}

/** A new album by a new artist with three new songs, and a new song on the first album. */
function addRelease(rows: Map<string, Record<string, string>[]>, round: number): void {
  const songs = rows.get('songs')!;
  const model = songs[round % songs.length];
  const artist = `arNew${round}`;
  const album = `alNew${round}`;
  rows.get('artists')!.push({ ...rows.get('artists')![0], id: artist, name: `New Artist ${round}`, omm_id: '' });
  rows.get('albums')!.push({ ...rows.get('albums')![0], id: album, name: `New Release ${round}`, omm_id: '', upc: '' });
  rows.get('album_artists')!.push({ album_id: album, artist_id: artist, position: '1' });
  const firstAlbum = rows.get('albums')![0].id;
  const newSongs = [1, 2, 3, 4].map((k) => ({
    ...model,
    id: `sNew${round}x${k}`,
    name: `New Song ${round} ${k}`,
    omm_id: '',
    isrc: k === 1 ? model.isrc : '',
    popularity: String(100 * k + round),
  }));
  songs.push(...newSongs);
  newSongs.forEach((s, i) => {
    rows.get('song_artists')!.push({ song_id: s.id, artist_id: i === 3 ? rows.get('artists')![1].id : artist, position: '1' });
    if (i < 3) rows.get('album_tracks')!.push({ album_id: album, song_id: s.id, disc_number: '1', track_number: String(i + 1) });
  });
  rows.get('album_tracks')!.push({ album_id: firstAlbum, song_id: newSongs[3].id, disc_number: '1', track_number: String(90 + round) });
}
