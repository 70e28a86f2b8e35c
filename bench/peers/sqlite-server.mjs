#!/usr/bin/env node
// The SQLite peer: what a team would hand-roll on a database. node:http + better-sqlite3 over
// the database sqlite-build.mjs makes (indexes on id, ISRC, UPC; FTS5 for search), answering
// the benchmark's requests the obvious way, in interface 1's shapes:
//   GET /v1/song/{id}[?include=albums,artists]   GET /v1/songs/lookup?isrc=a,b,...
//   GET /v1/search?term=...&types=song&limit=N
//   GET /v1/match/song?name=...&artist=...       (FTS over name and artists, the best bm25)
// Usage: node bench/peers/sqlite-server.mjs <db-file> <port>
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DEPS_DIR } from './install-peer-deps.mjs';

const Database = createRequire(join(DEPS_DIR, 'package.json'))('better-sqlite3');
const [dbFile, port] = process.argv.slice(2);
const db = new Database(dbFile, { readonly: true });
db.pragma('cache_size = -65536');
db.pragma('mmap_size = 1073741824');

const songById = db.prepare('SELECT * FROM songs WHERE id = ?');
const songByRowid = db.prepare('SELECT * FROM songs WHERE rowid = ?');
const songsByIsrc = db.prepare('SELECT * FROM songs WHERE isrc = ? COLLATE NOCASE ORDER BY id');
const albumOfSong = db.prepare(
  'SELECT a.*, t.disc_number, t.track_number FROM album_tracks t JOIN albums a ON a.id = t.album_id WHERE t.song_id = ? ORDER BY a.name',
);
const artistsOfSong = db.prepare('SELECT ar.* FROM song_artists sa JOIN artists ar ON ar.id = sa.artist_id WHERE sa.song_id = ? ORDER BY sa.position');
const artistsOfAlbum = db.prepare('SELECT ar.* FROM album_artists aa JOIN artists ar ON ar.id = aa.artist_id WHERE aa.album_id = ? ORDER BY aa.position');
const search = db.prepare('SELECT rowid FROM songs_fts WHERE songs_fts MATCH ? ORDER BY bm25(songs_fts) LIMIT ?');

const matchSearch = db.prepare('SELECT rowid FROM songs_fts WHERE songs_fts MATCH ? ORDER BY bm25(songs_fts) LIMIT 20');

const genres = (g) => (g ? g.split('|') : undefined);
const clean = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

function songResource(s, include) {
  const albums = albumOfSong.all(s.id);
  const songArtists = artistsOfSong.all(s.id);
  const artists = songArtists.length > 0 || albums.length === 0 ? songArtists : artistsOfAlbum.all(albums[0].id);
  const first = albums[0];
  const out = {
    id: s.id,
    type: 'song',
    attributes: clean({
      name: s.name,
      albumName: first?.name,
      artistName: artists.map((a) => a.name).join(' & ') || undefined,
      isrc: s.isrc,
      artworkUrl: s.artwork_url ?? first?.artwork_url,
      trackNumber: first?.track_number,
      discNumber: first?.disc_number,
      genres: genres(s.genres) ?? genres(first?.genres),
      releaseDate: s.release_date ?? first?.release_date,
      durationMs: s.duration_ms,
    }),
  };
  if (include) {
    out.relationships = {
      albums: {
        data: albums.map((a) => ({
          id: a.id,
          type: 'album',
          attributes: clean({
            name: a.name,
            artistName: artistsOfAlbum
              .all(a.id)
              .map((x) => x.name)
              .join(' & '),
            artworkUrl: a.artwork_url,
            upc: a.upc,
            genres: genres(a.genres),
            releaseDate: a.release_date,
          }),
        })),
      },
      artists: { data: artists.map((a) => ({ id: a.id, type: 'artist', attributes: clean({ name: a.name, artworkUrl: a.artwork_url }) })) },
    };
  }
  return out;
}

const ftsWords = (text) =>
  text
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
/** FTS5 query: every word, the last as a prefix. */
const ftsQuery = (term) =>
  ftsWords(term)
    .map((w, i, all) => `"${w}"${i === all.length - 1 ? '*' : ''}`)
    .join(' ');

/** Match: every word of the name in the name column and of the artist in the artists column; an exact name first. */
function matchSong(name, artist) {
  const q = [
    `name : (${ftsWords(name)
      .map((w) => `"${w}"`)
      .join(' ')})`,
    ...(artist && ftsWords(artist).length
      ? [
          `artists : (${ftsWords(artist)
            .map((w) => `"${w}"`)
            .join(' ')})`,
        ]
      : []),
  ].join(' AND ');
  const rows = ftsWords(name).length ? matchSearch.all(q).map((r) => songByRowid.get(r.rowid)) : [];
  const wanted = name.normalize('NFKC').toLowerCase();
  return rows.find((s) => s.name.normalize('NFKC').toLowerCase() === wanted) ?? rows[0];
}

/** @returns {[number, unknown]} */
function answer(url) {
  const u = new URL(url, 'http://x');
  const song = /^\/v1\/song\/([^/]+)$/.exec(u.pathname);
  if (song) {
    const s = songById.get(decodeURIComponent(song[1]));
    if (!s) return [404, { error: { status: 404, message: 'Resource not found' } }];
    return [200, { data: songResource(s, (u.searchParams.get('include') ?? '').includes('albums')) }];
  }
  if (u.pathname === '/v1/songs/lookup') {
    const data = [];
    for (const isrc of (u.searchParams.get('isrc') ?? '').split(',')) for (const s of songsByIsrc.all(isrc.trim())) data.push(songResource(s, false));
    return [200, { data }];
  }
  if (u.pathname === '/v1/search') {
    const q = ftsQuery(u.searchParams.get('term') ?? '');
    const limit = Number(u.searchParams.get('limit') ?? 25);
    const data = q ? search.all(q, limit).map((r) => songResource(songByRowid.get(r.rowid), false)) : [];
    return [200, { songs: { data, meta: { limit, offset: 0, total: data.length } } }];
  }
  if (u.pathname === '/v1/match/song') {
    const s = matchSong(u.searchParams.get('name') ?? '', u.searchParams.get('artist') ?? '');
    if (!s) return [404, { error: { status: 404, message: 'No match found' } }];
    return [200, { data: songResource(s, false) }];
  }
  return [404, { error: { status: 404, message: 'No such endpoint' } }];
}

createServer((req, res) => {
  let status;
  let body;
  try {
    [status, body] = answer(req.url ?? '/');
  } catch (err) {
    [status, body] = [500, { error: { status: 500, message: String(err) } }];
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}).listen(Number(port), '127.0.0.1');
