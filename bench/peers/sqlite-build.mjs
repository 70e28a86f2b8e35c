// Builds the SQLite peer's database from a raw catalog directory, the obvious way: one table
// per entity, the link tables, indexes on id, ISRC and UPC, and an FTS5 table over song names
// and artist names for search. Usage: node bench/peers/sqlite-build.mjs <raw-dir> <db-file>
import { createReadStream, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CsvParser } from '../../dist/raw/csv-parser.js';
import { DEPS_DIR, ensurePeerDeps } from './install-peer-deps.mjs';

ensurePeerDeps();
const Database = createRequire(join(DEPS_DIR, 'package.json'))('better-sqlite3');

async function rows(file, onRow) {
  let header = null;
  const parser = new CsvParser((cells) => {
    if (!header) header = cells;
    else onRow(Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])));
  });
  for await (const chunk of createReadStream(file)) parser.push(chunk);
  parser.end();
}

export async function buildSqlite(raw, dbFile) {
  rmSync(dbFile, { force: true });
  const db = new Database(dbFile);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(`
    CREATE TABLE songs (id TEXT PRIMARY KEY, name TEXT, isrc TEXT, duration_ms INTEGER, genres TEXT, release_date TEXT, artwork_url TEXT, popularity INTEGER);
    CREATE TABLE albums (id TEXT PRIMARY KEY, name TEXT, upc TEXT, release_date TEXT, artwork_url TEXT, genres TEXT, popularity INTEGER);
    CREATE TABLE artists (id TEXT PRIMARY KEY, name TEXT, artwork_url TEXT, genres TEXT, popularity INTEGER);
    CREATE TABLE song_artists (song_id TEXT, artist_id TEXT, position INTEGER);
    CREATE TABLE album_artists (album_id TEXT, artist_id TEXT, position INTEGER);
    CREATE TABLE album_tracks (album_id TEXT, song_id TEXT, disc_number INTEGER, track_number INTEGER);
  `);
  const load = async (table, file, columns) => {
    const insert = db.prepare(`INSERT INTO ${table} (${columns.join(',')}) VALUES (${columns.map(() => '?').join(',')})`);
    db.exec('BEGIN');
    await rows(join(raw, `${file}.csv`), (r) => insert.run(columns.map((c) => (r[c] === '' ? null : r[c]))));
    db.exec('COMMIT');
  };
  await load('songs', 'songs', ['id', 'name', 'isrc', 'duration_ms', 'genres', 'release_date', 'artwork_url', 'popularity']);
  await load('albums', 'albums', ['id', 'name', 'upc', 'release_date', 'artwork_url', 'genres', 'popularity']);
  await load('artists', 'artists', ['id', 'name', 'artwork_url', 'genres', 'popularity']);
  await load('song_artists', 'song_artists', ['song_id', 'artist_id', 'position']);
  await load('album_artists', 'album_artists', ['album_id', 'artist_id', 'position']);
  await load('album_tracks', 'album_tracks', ['album_id', 'song_id', 'disc_number', 'track_number']);
  db.exec(`
    CREATE INDEX songs_isrc ON songs (isrc COLLATE NOCASE);
    CREATE INDEX albums_upc ON albums (upc);
    CREATE INDEX song_artists_song ON song_artists (song_id, position);
    CREATE INDEX album_artists_album ON album_artists (album_id, position);
    CREATE INDEX album_tracks_song ON album_tracks (song_id);
    CREATE VIRTUAL TABLE songs_fts USING fts5 (name, artists, content='', tokenize='unicode61 remove_diacritics 2');
    INSERT INTO songs_fts (rowid, name, artists)
      SELECT s.rowid, s.name, (SELECT group_concat(a.name, ' ') FROM song_artists sa JOIN artists a ON a.id = sa.artist_id WHERE sa.song_id = s.id) FROM songs s;
  `);
  db.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t0 = performance.now();
  await buildSqlite(process.argv[2], process.argv[3]);
  console.error(`sqlite: built ${process.argv[3]} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
