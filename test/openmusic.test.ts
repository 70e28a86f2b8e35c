import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveOmmId } from '../src/catalog/catalog-ids.js';
import { SMALL_CATALOG, writeRaw } from './helpers/raw-fixture.js';
import { referenceAvailable, REFERENCE_PATH } from './helpers/reference-validator.js';
import { qs, serveRaw, type TestServer } from './helpers/server.js';

// Interface 2 (/openmusic) end to end on the fixture catalog. Every response here is validated
// against our OpenAPI document and, when ../shared/reference is beside the project, against the
// public OpenMusic document's schemas (test/helpers/server.ts).
if (!referenceAvailable) console.warn(`[openmusic] ${REFERENCE_PATH} not found: responses are validated against our own OpenAPI document only`);

describe('interface 2 on a fixture catalog', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await serveRaw(writeRaw(SMALL_CATALOG));
  });
  afterAll(() => s.close());
  const ids = (r: { body: { data: { id: string }[] } }) => r.body.data.map((d) => d.id);

  it('/openmusic/ gives the info with every capability', async () => {
    const r = await s.get('/openmusic/');
    expect(r.status).toBe(200);
    expect(r.body.data.openmusic).toEqual({
      version: '1.0.0',
      capabilities: {
        info: true,
        search: true,
        song: true,
        download: true,
        stream: true,
        albums: true,
        artists: true,
        playlists: true,
        stations: true,
        sort: true,
        lyrics: true,
      },
    });
    expect(r.body.data.branding).toMatchObject({ name: 'omm-catalog', email: expect.stringContaining('@') });
  });

  it('a song: plural type, bare omm_id, instance with files in bps, snake_case attributes with nulls', async () => {
    const r = await s.get('/openmusic/songs/100');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      id: '100',
      type: 'songs',
      attributes: {
        name: 'Song A',
        album_name: 'First Light',
        artist_name: 'Ärzte & Smith, John',
        isrc: 'USRC17607839',
        artwork_url: 'https://img.example.com/a10.jpg',
        track_number: 1,
        disc_number: 1,
        genres: ['Rock'], // from its album
        release_date: '2001-05-03',
      },
      meta: { omm_id: deriveOmmId('song', '100') },
      instance: {
        duration_in_ms: 200000,
        files: [
          {
            download_url: 'https://cdn.example.com/f2.mp3',
            lossless: false,
            mime_type: 'audio/mpeg',
            codec: 'mp3',
            bitrate: 320000,
            stream_url: 'https://cdn.example.com/f2.mp3',
          },
          {
            download_url: 'https://cdn.example.com/f1.flac?dl=1',
            lossless: true,
            mime_type: 'audio/flac',
            codec: 'flac',
            bitrate: 900000,
            stream_url: 'https://cdn.example.com/f1.flac',
          },
        ],
        has_lyrics: true,
      },
    });
  });

  it('resolves local ids, catalog ids and bare omm ids; an unknown id is a 404 in the interface-2 body', async () => {
    const omm = deriveOmmId('song', '100');
    for (const id of ['100', `omm:song:${omm}`, omm]) expect((await s.get(`/openmusic/songs/${id}`)).body.data.id).toBe('100');
    const missing = await s.get('/openmusic/songs/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 404, title: 'Not Found', message: 'Resource not found', trace_id: missing.headers['x-request-id'] } });
    const unknownPath = await s.get('/openmusic/nothing-here');
    expect(unknownPath.body.error).toMatchObject({ code: 404, title: 'Not Found' });
  });

  it('includes one level: albums, artists and lyrics by lang with en-US fallback; limit[...] sizes them', async () => {
    const r = await s.get(`/openmusic/songs/100?${qs({ include: 'albums,artists,lyrics', 'limit[albums]': 1 })}`);
    expect(r.body.data.relationships.albums.map((a: { id: string }) => a.id)).toEqual(['12']); // by name: Compilation < First Light
    expect(r.body.data.relationships.albums[0]).not.toHaveProperty('relationships');
    expect(r.body.data.relationships.artists.map((a: { id: string }) => a.id)).toEqual(['1', '2']);
    expect(r.body.data.relationships.lyrics).toEqual({ text: 'la la\nla', language: 'en-US' });
    const ja = await s.get('/openmusic/songs/100?include=lyrics&lang=ja');
    expect(ja.body.data.relationships.lyrics).toEqual({ text: 'ラララ', language: 'ja' });
    const none = await s.get('/openmusic/songs/101?include=lyrics');
    expect(none.body.data.relationships).toEqual({});
  });

  it('refuses what an endpoint does not take, naming each parameter in one 400', async () => {
    const r = await s.get(
      `/openmusic/songs?${qs({ include: 'tracks,albums.artists', limit: 26, offset: -1, view: 'full', 'view[stations]': 'minimal', 'limit[tracks]': 2, sort: 'popularity' })}`,
    );
    expect(r.status).toBe(400);
    const message: string = r.body.error.message;
    for (const part of [
      'include must list values from albums, artists, lyrics',
      'one level deep',
      'view must be minimal',
      'view[stations] is not a parameter',
      'limit[tracks] is not a parameter',
      'limit must be from 1 to 25',
      'offset must be 0 or more',
      'sort must be one of name, -name, date_released',
    ]) {
      expect(message).toContain(part);
    }
    expect((await s.get('/openmusic/songs/100?limit[albums]=0')).status).toBe(400);
    expect((await s.get('/openmusic/songs/100?limit[albums]=26')).status).toBe(400);
    expect((await s.get('/openmusic/artists?sort=date_released')).status).toBe(400); // artists have no release date
    expect((await s.get('/openmusic/songs?ids=100&isrc=USRC17607839')).status).toBe(400);
  });

  it('view=minimal and view[type]=minimal drop attributes of those types only', async () => {
    const all = await s.get('/openmusic/songs/100?include=albums&view=minimal');
    expect(all.body.data).not.toHaveProperty('attributes');
    expect(all.body.data.relationships.albums[0]).not.toHaveProperty('attributes');
    const albumsOnly = await s.get(`/openmusic/songs/100?${qs({ include: 'albums', 'view[albums]': 'minimal' })}`);
    expect(albumsOnly.body.data.attributes.name).toBe('Song A');
    expect(albumsOnly.body.data.relationships.albums[0]).toEqual({ id: '12', type: 'albums', meta: { omm_id: deriveOmmId('album', '12') } });
  });

  it('lists page with has_next_page and sort in snake_case; lookups keep request order', async () => {
    const page1 = await s.get('/openmusic/songs?limit=2');
    expect(ids(page1)).toEqual(['103', '100']); // name order: Quote "Q" < Song A < Song, B < Ñandú (case-insensitive, normalised)
    expect(page1.body.meta).toEqual({ limit: 2, offset: 0, has_next_page: true });
    const page2 = await s.get('/openmusic/songs?limit=2&offset=2');
    expect(page2.body.meta.has_next_page).toBe(false);
    expect([...ids(page1), ...ids(page2)]).toHaveLength(4);
    expect(ids(await s.get('/openmusic/songs?sort=-date_added&limit=2'))).toEqual(['100', '101']);
    expect(ids(await s.get('/openmusic/songs?sort=date_released'))[0]).toBe('102'); // 1999 (its album's date)
    expect(ids(await s.get('/openmusic/songs?ids=103,nope,100,103'))).toEqual(['103', '100', '103']);
    expect(ids(await s.get(`/openmusic/songs?omm_ids=${deriveOmmId('song', '101')}`))).toEqual(['101']);
    expect(ids(await s.get('/openmusic/songs?isrc=usrc17607839'))).toEqual(['100', '102']);
    expect(ids(await s.get('/openmusic/albums?upc=0036000291452'))).toEqual(['10']); // the UPC-A as EAN-13 (GTIN-13)
    expect(ids(await s.get('/openmusic/artists?omm_ids=abcdefghij012345'))).toEqual(['3']);
    expect(ids(await s.get('/openmusic/playlists?ids=p2,p1'))).toEqual(['p2', 'p1']);
  });

  it('filter[genres] keeps resources with any of the genres, case-insensitively, on lists, lookups and search', async () => {
    expect(ids(await s.get('/openmusic/songs?filter[genres]=jazz'))).toEqual(['103']);
    expect(ids(await s.get('/openmusic/songs?ids=100,103&filter[genres]=JAZZ'))).toEqual(['103']);
    expect(ids(await s.get('/openmusic/albums?filter[genres]=ambient,rock'))).toEqual(['10', '11']);
    expect(ids(await s.get('/openmusic/artists?filter[genres]=punk'))).toEqual(['1']);
    expect(ids(await s.get('/openmusic/playlists?filter[genres]=ambient'))).toEqual(['p1']);
    expect(ids(await s.get('/openmusic/songs?filter[genres]=polka'))).toEqual([]);
    expect(ids(await s.get('/openmusic/search/songs?term=song&filter[genres]=jazz'))).toEqual([]);
  });

  it('relationship endpoints: album tracks by disc and track, artist albums newest first, playlist positions', async () => {
    expect(ids(await s.get('/openmusic/albums/12/rel/tracks'))).toEqual(['100', '103']);
    expect(ids(await s.get('/openmusic/albums/10/rel/artists'))).toEqual(['1', '2']);
    expect(ids(await s.get('/openmusic/songs/100/rel/albums'))).toEqual(['12', '10']);
    expect(ids(await s.get('/openmusic/songs/101/rel/artists'))).toEqual(['2', '1']);
    expect(ids(await s.get('/openmusic/artists/1/rel/albums'))).toEqual(['10']);
    expect(ids(await s.get('/openmusic/artists/1/rel/songs?sort=-name'))).toEqual(['101', '100']);
    expect(ids(await s.get('/openmusic/playlists/p1/rel/tracks'))).toEqual(['100', '103', '100']);
    const tracks = await s.get('/openmusic/playlists/p1/rel/tracks?limit=1&include=artists&limit[artists]=1');
    expect(tracks.body.meta).toEqual({ limit: 1, offset: 0, has_next_page: true });
    expect(tracks.body.data[0].relationships.artists).toHaveLength(1);
    expect((await s.get('/openmusic/albums/nope/rel/tracks')).status).toBe(404);
  });

  it('lyrics endpoint: by lang with en-US fallback, 404 without lyrics', async () => {
    expect((await s.get('/openmusic/songs/100/rel/lyrics')).body).toEqual({ data: { text: 'la la\nla', language: 'en-US' } });
    expect((await s.get('/openmusic/songs/100/rel/lyrics?lang=ja-JP')).body.data.language).toBe('ja');
    expect((await s.get('/openmusic/songs/101/rel/lyrics')).status).toBe(404);
  });

  it('playlists have no meta; a missing curator is an empty string', async () => {
    const p = await s.get('/openmusic/playlists/p2');
    expect(p.body.data).toEqual({
      id: 'p2',
      type: 'playlists',
      attributes: { name: 'Empty', curator_name: '', description: null, artwork_url: null, genres: [] },
    });
    expect((await s.get('/openmusic/playlists/p1?include=tracks&limit[tracks]=2')).body.data.relationships.tracks).toHaveLength(2);
  });

  it('stations: artist, genre and popular seeds, their tracks paged and sortable', async () => {
    const artist = await s.get('/openmusic/stations/artist/1?include=tracks');
    expect(artist.body.data).toMatchObject({
      id: 'artist-1',
      type: 'stations',
      attributes: { seed: { kind: 'artist', artist: { id: '1', type: 'artists', meta: { omm_id: deriveOmmId('artist', '1') } } }, genres: ['Rock', 'Punk'] },
    });
    expect(artist.body.data.relationships.tracks.length).toBeGreaterThan(0);
    const genre = await s.get('/openmusic/stations/genre/JAZZ');
    expect(genre.body.data.attributes).toMatchObject({ seed: { kind: 'genre', genre: 'Jazz' }, genres: ['Jazz'] });
    expect(ids(await s.get('/openmusic/stations/genre/jazz/rel/tracks'))).toEqual(['103']);
    const popular = await s.get('/openmusic/stations/popular/rel/tracks?limit=2');
    expect(ids(popular)).toEqual(['103', '101']); // by popularity
    expect(popular.body.meta.has_next_page).toBe(true);
    expect(ids(await s.get('/openmusic/stations/popular/rel/tracks?sort=name&limit=1'))).toEqual(['103']);
    expect((await s.get('/openmusic/stations/popular')).body.data.attributes.seed).toEqual({ kind: 'popular' });
    expect((await s.get('/openmusic/stations/genre/polka')).status).toBe(404);
    expect((await s.get('/openmusic/stations/artist/nope/rel/tracks')).status).toBe(404);
  });

  it('search: default buckets top, songs, artists, albums; include picks buckets; limit[bucket] sizes them', async () => {
    const r = await s.get('/openmusic/search?term=song');
    expect(Object.keys(r.body.data)).toEqual(['top', 'songs', 'artists', 'albums']);
    expect(r.body.data.songs.map((x: { id: string }) => x.id)).toEqual(['101', '100']); // both exact-word matches, by popularity
    const one = await s.get(`/openmusic/search?${qs({ term: 'song', include: 'songs,stations,playlists', 'limit[songs]': 1 })}`);
    expect(Object.keys(one.body.data)).toEqual(['songs', 'stations', 'playlists']);
    expect(one.body.data.songs).toHaveLength(1);
    const jazz = await s.get('/openmusic/search?term=jazz&include=stations');
    expect(jazz.body.data.stations.map((x: { id: string }) => x.id)).toEqual(['genre-jazz']);
    expect((await s.get('/openmusic/search?term=song&include=genres')).status).toBe(400);
    expect((await s.get('/openmusic/search')).status).toBe(400);
    expect((await s.get(`/openmusic/search?term=${'x'.repeat(257)}`)).status).toBe(400);
  });

  it('search per type: paged within the window, with includes', async () => {
    const r = await s.get('/openmusic/search/songs?term=song&limit=1&include=artists');
    expect(ids(r)).toEqual(['101']);
    expect(r.body.meta).toEqual({ limit: 1, offset: 0, has_next_page: true });
    expect(r.body.data[0].relationships.artists.map((a: { id: string }) => a.id)).toEqual(['2', '1']);
    expect(ids(await s.get('/openmusic/search/albums?term=второй'))).toEqual(['11']);
    expect(ids(await s.get('/openmusic/search/artists?term=arzte'))).toEqual(['1']);
    expect(ids(await s.get('/openmusic/search/playlists?term=morn'))).toEqual(['p1']);
    expect((await s.get('/openmusic/search/songs?term=song&offset=990&limit=25')).status).toBe(400);
  });

  it('HEAD is answered and other methods are 405 in the interface-2 body', async () => {
    expect((await s.get('/openmusic/songs/100', { method: 'HEAD' })).status).toBe(200);
    const post = await s.get('/openmusic/songs/100', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.body.error).toMatchObject({ code: 405, title: 'Method Not Allowed' });
  });
});

/**
 * Interface 2 types artwork_url `format: uri`; the catalog's artwork may be a `{w}x{h}`
 * template. Served sized (600x600) in interface 2, as pre-rendered views and as rendered with
 * includes, and as the template in interface 1, whose reference allows the placeholders.
 */
describe('artwork templates: URIs in interface 2, templates in interface 1', () => {
  let s: TestServer;
  beforeAll(async () => {
    const templated = {
      ...SMALL_CATALOG,
      albums: SMALL_CATALOG.albums.replace('https://img.example.com/a10.jpg', 'https://img.example.com/a10/{w}x{h}bb.jpg'),
      artists: SMALL_CATALOG.artists.replace('https://img.example.com/ar1.jpg', 'https://img.example.com/Ärzte/{w}x{h}.jpg'),
    };
    s = await serveRaw(writeRaw(templated));
  });
  afterAll(() => s.close());

  it('interface 2 sizes the template, in the stored view and when rendered with includes', async () => {
    const album = await s.get('/openmusic/albums/10');
    expect(album.body.data.attributes.artwork_url).toBe('https://img.example.com/a10/600x600bb.jpg');
    const song = await s.get('/openmusic/songs/100?include=albums,artists');
    expect(song.body.data.attributes.artwork_url).toBe('https://img.example.com/a10/600x600bb.jpg'); // from its album
    expect(song.body.data.relationships.albums.find((a: { id: string }) => a.id === '10').attributes.artwork_url).toBe(
      'https://img.example.com/a10/600x600bb.jpg',
    );
    // A letter a URI cannot hold as it is comes percent-encoded.
    expect(song.body.data.relationships.artists.find((a: { id: string }) => a.id === '1').attributes.artwork_url).toBe(
      'https://img.example.com/%C3%84rzte/600x600.jpg',
    );
  });

  it('interface 1 passes the template on', async () => {
    const album = await s.get('/v1/album/10');
    expect(album.body.data.attributes.artworkUrl).toBe('https://img.example.com/a10/{w}x{h}bb.jpg');
  });
});
