import { describe, expect, it, beforeAll } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { catalogIdOf, deriveOmmId } from '../src/catalog/catalog-ids.js';
import { Snapshot, nativeMmapAvailable } from '../src/index-format/index.js';
import { SMALL_CATALOG, tempDir, writeRaw } from './helpers/raw-fixture.js';

const modes = nativeMmapAvailable() ? (['pread', 'mmap'] as const) : (['pread'] as const);

describe.each(modes)('raw -> snapshot -> reader (%s)', (mode) => {
  let snap: Snapshot;
  beforeAll(async () => {
    const out = tempDir();
    await compileCatalog({ rawDir: writeRaw(SMALL_CATALOG), outDir: out });
    snap = Snapshot.open(out, { mode });
  });
  const songOf = (id: string) => snap.records('songs').get<Record<string, unknown>>(snap.keys('song.id').get(id));

  it('counts every entity', () => {
    expect(snap.manifest.counts).toMatchObject({ songs: 4, albums: 3, artists: 4, playlists: 2, files: 3, lyrics: 2, customStations: 1, genres: 4 });
    expect(snap.manifest.sources.map((s) => s.file)).toContain('explore_items.csv');
  });

  it('stores songs with derived album, credits, fallbacks and lyrics languages', () => {
    expect(songOf('101')).toMatchObject({
      id: '101',
      name: 'Song, B',
      isrc: 'USRC17607840',
      albumName: 'First Light',
      trackNumber: 2,
      discNumber: 1,
      artistNames: ['Smith, John', 'Ärzte'],
      artistName: 'Smith, John & Ärzte',
      genres: ['Rock'],
      releaseDate: '2001-05-03',
      artworkUrl: 'https://img.example.com/a10.jpg',
      ommId: deriveOmmId('song', '101'),
    });
    // credits inherited from the primary album, which is the first album_tracks row
    expect(songOf('100')).toMatchObject({
      artistNames: ['Ärzte', 'Smith, John'],
      albumName: 'First Light',
      lyricsLanguages: ['en-US', 'ja'],
      isrc: 'USRC17607839',
    });
    expect(songOf('103')).toMatchObject({ albumName: 'Compilation', discNumber: 2, trackNumber: 1, genres: ['Jazz'], name: 'Quote "Q"', durationMs: 90000 });
    expect(songOf('102')).toMatchObject({ name: 'Ñandú', durationMs: null, artistName: '坂本龍一', releaseDate: '1999' });
  });

  it('stores albums, artists, playlists, files, lyrics, stations and genres', () => {
    const album = snap.records('albums').get(snap.keys('album.id').get('10'));
    expect(album).toMatchObject({ name: 'First Light', upc: '036000291452', label: 'Blue Label', trackCount: 2, artistNames: ['Ärzte', 'Smith, John'] });
    const artist = snap.records('artists').get(snap.keys('artist.omm').get('abcdefghij012345'));
    expect(artist).toMatchObject({ id: '3', name: '坂本龍一', genres: ['Ambient'] });
    expect(snap.records('artists').get(snap.keys('artist.id').get('4'))).toMatchObject({ genres: ['Jazz'] }); // derived from songs
    expect(snap.records('playlists').get(snap.keys('playlist.id').get('p1'))).toMatchObject({ name: 'Morning', description: 'Calm, slow', trackCount: 3 });
    const files = snap.arrays('relations').adjacency('song.files').targetsOf(snap.keys('song.id').get('100'));
    expect([...files].map((f) => snap.records('files').get<{ id: string }>(f).id)).toEqual(['f2', 'f1']); // preferred first
    // A file keeps its own duration, null when its cell is empty (the interfaces show the song's).
    expect(snap.records('files').get(0)).toMatchObject({ durationMs: null, lossless: true, bitrateKbps: 900 });
    expect(snap.records('files').get(2)).toMatchObject({ id: 'f3', durationMs: 91000 });
    expect(snap.records('lyrics').get(0)).toMatchObject({ language: 'en-US', text: 'la la\nla' });
    const focus = snap.records('stations').get(snap.keys('station.id').get('focus'));
    expect(focus).toMatchObject({ name: 'Focus', description: 'Deep work', seed: { kind: 'custom' }, trackCount: 2 });
    expect(snap.keys('station.id').get('popular')).toBeGreaterThanOrEqual(0);
    expect(snap.keys('station.id').get('artist-1')).toBeGreaterThanOrEqual(0);
    expect(snap.keys('station.id').get('album-11')).toBeGreaterThanOrEqual(0);
    const rock = snap.records('genres').get(snap.keys('genre.name').get('rock'));
    expect(rock).toMatchObject({ name: 'Rock', stationId: 'genre-rock', songCount: 2 });
  });

  it('answers every key table, ISRC one-to-many by local id and UPC as GTIN-13', () => {
    const ids = (ordinals: readonly number[]) => ordinals.map((o) => snap.records('songs').get<{ id: string }>(o).id);
    expect(ids(snap.keys('song.isrc').getAll('USRC17607839'))).toEqual(['100', '102']);
    expect(snap.keys('song.isrc').getAll('XX0000000000')).toEqual([]);
    expect(snap.keys('album.upc').get('0036000291452')).toBe(snap.keys('album.id').get('10'));
    expect(snap.keys('album.upc').get('4006381333931')).toBe(snap.keys('album.id').get('11'));
    expect(snap.keys('song.omm').get(deriveOmmId('song', '103'))).toBe(snap.keys('song.id').get('103'));
    expect(catalogIdOf('song', deriveOmmId('song', '103'))).toMatch(/^omm:song:[0-9a-z]{16}$/);
    expect(snap.keys('song.id').get('nope')).toBe(-1);
  });

  it('precomputes orders with ties on local id and missing dates last in both directions', () => {
    const order = (name: string) =>
      [...snap.arrays('songs.orders').column(`order.${name}`).slice(0, 10)].map((o) => snap.records('songs').get<{ id: string }>(o).id);
    // lower-cased code units: 'quote "q"' < 'song a' < 'song, b' (space < comma) < 'ñandú' (U+00F1)
    expect(order('name')).toEqual(['103', '100', '101', '102']);
    expect(order('dateAdded')).toEqual(['103', '101', '100', '102']);
    expect(order('-dateAdded')).toEqual(['100', '101', '103', '102']);
    expect(order('releaseDate')).toEqual(['102', '100', '101', '103']);
    expect(order('-releaseDate')).toEqual(['103', '100', '101', '102']);
    expect(order('popularity')).toEqual(['103', '101', '100', '102']);
    const rank = snap.arrays('songs.orders').column('rank.name');
    expect(rank.get(snap.keys('song.id').get('102'))).toBe(3);
  });

  it('stores relationships in their default orders', () => {
    const rel = snap.arrays('relations');
    const songIds = (os: Uint32Array) => [...os].map((o) => snap.records('songs').get<{ id: string }>(o).id);
    const albumIds = (os: Uint32Array) => [...os].map((o) => snap.records('albums').get<{ id: string }>(o).id);
    expect(songIds(rel.adjacency('album.tracks').targetsOf(snap.keys('album.id').get('12')))).toEqual(['100', '103']);
    expect(albumIds(rel.adjacency('song.albums').targetsOf(snap.keys('song.id').get('100')))).toEqual(['10', '12']);
    expect(albumIds(rel.adjacency('artist.albums').targetsOf(snap.keys('artist.id').get('1')))).toEqual(['10']);
    expect(songIds(rel.adjacency('playlist.tracks').targetsOf(snap.keys('playlist.id').get('p1')))).toEqual(['100', '103', '100']);
    expect(songIds(rel.adjacency('station.tracks').targetsOf(snap.keys('station.id').get('focus')))).toEqual(['102', '101']);
    expect(rel.adjacency('playlist.tracks').count(snap.keys('playlist.id').get('p2'))).toBe(0);
    expect(songIds(rel.adjacency('playlist.tracks').targetsOf(snap.keys('playlist.id').get('p1'), 1, 2))).toEqual(['103']);
    // The playlists a song is on: each once, though p1 holds song 100 twice.
    const playlistIds = (os: Uint32Array) => [...os].map((o) => snap.records('playlists').get<{ id: string }>(o).id);
    expect(playlistIds(rel.adjacency('song.playlists').targetsOf(snap.keys('song.id').get('100')))).toEqual(['p1']);
    expect(rel.adjacency('song.playlists').count(snap.keys('song.id').get('101'))).toBe(0);
  });
});

describe('song.playlists', () => {
  it('lists the playlists a song is on, most popular first, each once', async () => {
    const out = tempDir();
    const raw = writeRaw({
      artists: 'id,name\na,A',
      albums: 'id,name\nal,Al',
      songs: 'id,name\ns1,One\ns2,Two',
      playlists: 'id,name,popularity\nquiet,Quiet,5\nloud,Loud,90\nmid,Mid,40',
      playlist_tracks: 'playlist_id,song_id,position\nquiet,s1,1\nloud,s1,1\nloud,s1,2\nmid,s1,1\nmid,s2,2',
    });
    await compileCatalog({ rawDir: raw, outDir: out });
    const snap = Snapshot.open(out);
    const on = (song: string) =>
      [...snap.arrays('relations').adjacency('song.playlists').targetsOf(snap.keys('song.id').get(song))].map(
        (o) => snap.records('playlists').get<{ id: string }>(o).id,
      );
    expect(on('s1')).toEqual(['loud', 'mid', 'quiet']);
    expect(on('s2')).toEqual(['mid']);
  });
});

describe('artist_name: the credit as displayed', () => {
  it('is the song and album artistName when given, and the names joined with " & " otherwise; artistNames stay the credited names', async () => {
    const out = tempDir();
    const raw = writeRaw({
      artists: 'id,name\na,Ed Sheeran\nb,Meek Mill\nc,A Boogie Wit da Hoodie',
      albums: 'id,name,artist_name\nal,No.6,Ed Sheeran feat. Meek Mill\nal2,Plain,',
      album_artists: 'album_id,artist_id,position\nal,a,1\nal,b,2\nal2,a,1\nal2,b,2',
      songs: 'id,name,artist_name\ns1,Take Me Back to London,Ed Sheeran feat. Meek Mill & A Boogie Wit da Hoodie\ns2,Joined,',
      song_artists: 'song_id,artist_id,position\ns1,a,1\ns1,b,2\ns1,c,3\ns2,a,1\ns2,c,2',
      album_tracks: 'album_id,song_id,track_number\nal,s1,1\nal,s2,2',
    });
    await compileCatalog({ rawDir: raw, outDir: out });
    const snap = Snapshot.open(out);
    const song = (id: string) => snap.records('songs').get<Record<string, unknown>>(snap.keys('song.id').get(id));
    const album = (id: string) => snap.records('albums').get<Record<string, unknown>>(snap.keys('album.id').get(id));
    expect(song('s1')).toMatchObject({
      artistName: 'Ed Sheeran feat. Meek Mill & A Boogie Wit da Hoodie',
      artistNames: ['Ed Sheeran', 'Meek Mill', 'A Boogie Wit da Hoodie'],
    });
    expect(song('s2')).toMatchObject({ artistName: 'Ed Sheeran & A Boogie Wit da Hoodie' });
    expect(album('al')).toMatchObject({ artistName: 'Ed Sheeran feat. Meek Mill', artistNames: ['Ed Sheeran', 'Meek Mill'] });
    expect(album('al2')).toMatchObject({ artistName: 'Ed Sheeran & Meek Mill' });
  });
});

describe('a compile without a search index (what a delta compile asks of its candidates)', () => {
  it('writes every other shard as a full compile does, and no search shard', async () => {
    const raw = writeRaw(SMALL_CATALOG);
    const full = await compileCatalog({ rawDir: raw, outDir: tempDir(), views: false });
    const bare = await compileCatalog({ rawDir: raw, outDir: tempDir(), views: false, search: false });
    const isSearch = (name: string) => name.startsWith('search.');
    expect(full.manifest.shards.some((s) => isSearch(s.name))).toBe(true);
    expect(bare.manifest.shards.filter((s) => isSearch(s.name))).toEqual([]);
    expect(bare.manifest.shards).toEqual(full.manifest.shards.filter((s) => !isSearch(s.name)));
  });
});
