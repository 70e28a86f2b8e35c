import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogIdOf, deriveOmmId } from '../src/catalog/catalog-ids.js';
import { compareLocalIds } from '../src/compile/sort-keys.js';
import { SMALL_CATALOG, writeRaw } from './helpers/raw-fixture.js';
import { qs, SAMPLE_RAW, serveRaw, type TestServer } from './helpers/server.js';

describe('interface 1 resources on a fixture catalog', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await serveRaw(writeRaw(SMALL_CATALOG));
  });
  afterAll(() => s.close());

  it('GET /v1/ gives exact counts', async () => {
    const r = await s.get('/v1/');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ stats: { songs: 4, albums: 3, artists: 4 } });
  });

  it('/ describes the service and the snapshot; /healthz and /readyz answer', async () => {
    const info = await s.get('/');
    expect(info.body).toMatchObject({
      name: 'omm-catalog',
      snapshot: { buildId: s.running.catalog.buildId },
      counts: { songs: 4, albums: 3, artists: 4 },
      links: { v1: '/v1/' },
    });
    expect((await s.get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await s.get('/readyz')).body).toEqual({ status: 'ready', buildId: s.running.catalog.buildId });
  });

  it('a song by local id and by catalog id renders the same, with files and lyrics', async () => {
    const byLocal = await s.get('/v1/song/100');
    const byCatalog = await s.get(`/v1/song/${catalogIdOf('song', deriveOmmId('song', '100'))}`);
    expect(byLocal.status).toBe(200);
    expect(byCatalog.body).toEqual(byLocal.body);
    expect(byLocal.body.data).toMatchObject({
      id: '100',
      type: 'song',
      attributes: {
        name: 'Song A',
        isrc: 'USRC17607839',
        albumName: 'First Light',
        artistName: 'Ärzte & Smith, John', // inherited from album 10's credits, in credit order
        trackNumber: 1,
        discNumber: 1,
        durationMs: 200000,
        // Neither file has a duration of its own: each shows the song's.
        files: {
          preferred: { id: 'f2', mimeType: 'audio/mpeg', lossless: false, bitrateKbps: 320, durationMs: 200000 },
          alternatives: [{ id: 'f1', lossless: true, durationMs: 200000 }],
        },
        lyrics: { lang: 'en-US', text: 'la la\nla' },
      },
    });
    expect(byLocal.body.data.relationships).toBeUndefined();
    // A file with a duration of its own shows it, not the song's (90000).
    const other = await s.get('/v1/song/103');
    expect(other.body.data.attributes).toMatchObject({ durationMs: 90000, files: { preferred: { id: 'f3', durationMs: 91000 } } });
    expect((await s.get('/v1/song/103?fields[song]=files')).body.data.attributes.files.preferred.durationMs).toBe(91000);
  });

  it('lang picks lyrics: exact tag, then the same language, then English', async () => {
    expect((await s.get('/v1/song/100?lang=ja')).body.data.attributes.lyrics).toEqual({ lang: 'ja', text: 'ラララ', ttml: '<tt/>' });
    expect((await s.get('/v1/song/100?lang=ja-JP')).body.data.attributes.lyrics.lang).toBe('ja');
    expect((await s.get('/v1/song/100?lang=de')).body.data.attributes.lyrics.lang).toBe('en-US');
    const bad = await s.get('/v1/song/100?lang=%%%');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toMatchObject({ param: 'lang' });
  });

  it('include three levels deep, with limits and sorts per relationship', async () => {
    const r = await s.get(`/v1/artist/1?${qs({ include: 'albums.tracks.artists', 'limit[album:tracks]': 1, 'sort[album:tracks]': '-name' })}`);
    expect(r.status).toBe(200);
    const albums = r.body.data.relationships.albums;
    expect(albums.meta).toEqual({ limit: 25, offset: 0, total: 1 });
    const tracks = albums.data[0].relationships.tracks;
    expect(tracks.meta).toEqual({ limit: 1, offset: 0, total: 2 });
    expect(tracks.data.map((t: { id: string }) => t.id)).toEqual(['101']); // "Song, B" before "Song A" descending
    expect(tracks.data[0].relationships.artists.data.map((a: { id: string }) => a.id)).toEqual(['2', '1']); // credit order
  });

  it('a nested include implies its ancestors; [] means included and empty', async () => {
    const r = await s.get('/v1/song/102?include=albums.artists,artists');
    expect(r.body.data.relationships.albums.data[0].relationships.artists.data[0].id).toBe('3');
    expect(r.body.data.relationships.artists).toEqual({
      data: [{ id: '3', type: 'artist', attributes: { name: '坂本龍一' } }],
      meta: { limit: 25, offset: 0, total: 1 },
    });
    const empty = await s.get('/v1/playlist/p2?include=tracks');
    expect(empty.body.data.relationships.tracks).toEqual({ data: [], meta: { limit: 25, offset: 0, total: 0 } });
  });

  it('fields apply to nested resources of the type; an empty value gives attributes {}', async () => {
    const r = await s.get(`/v1/album/10?${qs({ include: 'tracks', 'fields[song]': 'name,isrc', 'fields[album]': '' })}`);
    expect(r.body.data.attributes).toEqual({});
    expect(r.body.data.relationships.tracks.data[0].attributes).toEqual({ name: 'Song A', isrc: 'USRC17607839' });
  });

  it('every bad include, field and relationship option is named in one 400', async () => {
    const r = await s.get(
      `/v1/song/100?${qs({ include: 'albums.tracks.albums.tracks,nope', 'fields[song]': 'name,bogus', 'limit[album:tracks]': 0, 'sort[song:albums]': 'popularity', 'fields[playlist]': 'name' })}`,
    );
    expect(r.status).toBe(400);
    expect(r.headers['x-request-id']).toBe(r.body.error.requestId);
    const params = r.body.error.details.map((d: { param: string; value: unknown }) => `${d.param}=${d.value}`).sort();
    expect(params).toEqual([
      'fields[playlist]=name',
      'fields[song]=bogus',
      'include=albums.tracks.albums.tracks',
      'include=nope',
      'limit[album:tracks]=0',
      'sort[song:albums]=popularity',
    ]);
    expect(r.body.error.status).toBe(400);
  });

  it('lookup keeps request order, repeats duplicates and leaves out unknown ids', async () => {
    const r = await s.get(`/v1/songs/lookup?ids=103,nope,100,${catalogIdOf('song', deriveOmmId('song', '101'))},103`);
    expect(r.status).toBe(200);
    expect(r.body.data.map((d: { id: string }) => d.id)).toEqual(['103', '100', '101', '103']);
    expect(r.body.meta).toBeUndefined();
  });

  it('ISRC lookup is case-insensitive, trimmed and one-to-many (by local id)', async () => {
    const r = await s.get('/v1/songs/lookup?isrc=%20usrc17607839%20,GBAYE0000351');
    expect(r.body.data.map((d: { id: string }) => d.id)).toEqual(['100', '102', '103']);
  });

  it('UPC lookup matches a 12-digit UPC-A and its 13-digit form', async () => {
    const a = await s.get('/v1/albums/lookup?upc=036000291452');
    const b = await s.get('/v1/albums/lookup?upc=0036000291452');
    expect(a.body.data.map((d: { id: string }) => d.id)).toEqual(['10']);
    expect(b.body).toEqual(a.body);
    expect((await s.get('/v1/albums/lookup?upc=4006381333931')).body.data[0].attributes.upc).toBe('4006381333931');
  });

  it('lookup takes exactly one of its keys and at most 100 values', async () => {
    expect((await s.get('/v1/songs/lookup?ids=100&isrc=USRC17607839')).status).toBe(400);
    expect((await s.get('/v1/songs/lookup')).status).toBe(400);
    const many = await s.get(`/v1/songs/lookup?ids=${Array.from({ length: 101 }, (_, i) => i).join(',')}`);
    expect(many.status).toBe(400);
    expect(many.body.error.message).toBe('Maximum 100 lookup values allowed');
  });

  it('related lists page, sort and default to DECISIONS orders', async () => {
    const tracks = await s.get('/v1/album/12/rel/tracks');
    expect(tracks.body.data.map((d: { id: string }) => d.id)).toEqual(['100', '103']); // disc then track
    expect(tracks.body.meta).toEqual({ limit: 25, offset: 0, total: 2 });
    const sorted = await s.get('/v1/album/12/rel/tracks?sort=-name&limit=1&offset=1');
    expect(sorted.body).toMatchObject({ data: [{ id: '103' }], meta: { limit: 1, offset: 1, total: 2 } }); // Song A, then Quote "Q"
    const artists = await s.get('/v1/album/10/rel/artists');
    expect(artists.body.data.map((d: { id: string }) => d.id)).toEqual(['1', '2']);
    expect((await s.get('/v1/song/100/rel/albums')).body.data.map((d: { id: string }) => d.id)).toEqual(['12', '10']); // by name
    expect((await s.get('/v1/album/10/rel/artists?sort=releaseDate')).status).toBe(400); // artists have no release date
  });

  it('stations by seed, genre, popular and id, and their tracks', async () => {
    const artist = await s.get('/v1/stations/artist/1?include=tracks');
    expect(artist.body.data).toMatchObject({
      id: 'artist-1',
      type: 'station',
      attributes: { name: 'Ärzte', seed: { kind: 'resource', type: 'artist', id: '1' } },
    });
    expect(artist.body.data.relationships.tracks.data.length).toBeGreaterThan(0);
    const song = await s.get('/v1/stations/song/100');
    expect(song.body.data).toMatchObject({ id: 'song-100', attributes: { seed: { kind: 'resource', type: 'song', id: '100' } } });
    const again = await s.get('/v1/station/song-100/tracks');
    expect(again.body.data[0].id).toBe('100');
    const genre = await s.get('/v1/stations/genres/JAZZ');
    expect(genre.body.data.attributes.seed).toEqual({ kind: 'genre', name: 'Jazz' });
    expect((await s.get('/v1/stations/popular')).body.data.attributes.seed).toEqual({ kind: 'popular' });
    const custom = await s.get('/v1/station/focus?fields[station]=name,description');
    expect(custom.body.data.attributes).toEqual({ name: 'Focus', description: 'Deep work' });
    const tracks = await s.get('/v1/station/focus/tracks');
    expect(tracks.body.data.map((d: { id: string }) => d.id)).toEqual(['102', '101']);
    expect((await s.get('/v1/stations/playlist/p1')).status).toBe(400);
    expect((await s.get('/v1/stations/artist/999')).status).toBe(404);
  });

  it('playlists list, lookup and by id; explore is a raw array of groups', async () => {
    const list = await s.get('/v1/playlists');
    expect(list.body.meta).toEqual({ limit: 25, offset: 0, total: 2 });
    const p1 = await s.get('/v1/playlist/p1?include=tracks');
    expect(p1.body.data.relationships.tracks.data.map((d: { id: string }) => d.id)).toEqual(['100', '103', '100']);
    const explore = await s.get('/v1/explore?limit=1');
    expect(explore.body.map((g: { title: string; type: string; data: unknown[] }) => [g.title, g.type, g.data.length])).toEqual([
      ['Picks', 'song', 1],
      ['Hot Albums', 'album', 1],
    ]);
  });
});

describe('interface 1 parameter rules and hostile input (bundled sample)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await serveRaw(SAMPLE_RAW);
  });
  afterAll(() => s.close());

  it.each([
    ['0', 'limit must be from 1 to 100'],
    ['101', 'limit must be from 1 to 100'],
    ['-1', 'limit must be from 1 to 100'],
    ['abc', 'limit must be an integer from 1 to 100'],
  ])('limit=%s is a 400 naming the parameter', async (value, message) => {
    const r = await s.get(`/v1/songs?limit=${value}`);
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual([{ message, param: 'limit', value }]);
  });

  it('rejects an unknown sort and a negative offset, all at once', async () => {
    const r = await s.get('/v1/artists?sort=releaseDate&offset=-5');
    expect(r.status).toBe(400);
    expect(r.body.error.details.map((d: { param: string }) => d.param).sort()).toEqual(['offset', 'sort']);
  });

  it.each(['name', '-name', 'dateAdded', '-dateAdded', 'releaseDate', '-releaseDate'])(
    'pages through /v1/songs?sort=%s with no duplicates or gaps',
    async (sort) => {
      const first = await s.get(`/v1/songs?sort=${sort}&limit=100`);
      const total = first.body.meta.total;
      expect(total).toBe(4500);
      const seen = new Set<string>();
      for (let offset = 0; offset < total; offset += 100) {
        const page = await s.get(`/v1/songs?sort=${sort}&limit=100&offset=${offset}&fields[song]=name`);
        expect(page.body.meta).toEqual({ limit: 100, offset, total });
        for (const d of page.body.data) seen.add(d.id);
      }
      expect(seen.size).toBe(total);
    },
  );

  it('sort=name compares case-insensitively after NFKC, ties on local id; -name reverses the names', async () => {
    const key = (n: string) => n.normalize('NFKC').toLowerCase();
    const all: { id: string; name: string }[] = [];
    for (let offset = 0; offset < 1109; offset += 100) {
      const page = await s.get(`/v1/artists?limit=100&offset=${offset}`);
      all.push(...page.body.data.map((d: { id: string; attributes: { name: string } }) => ({ id: d.id, name: d.attributes.name })));
    }
    for (let i = 1; i < all.length; i++) {
      const a = key(all[i - 1].name);
      const b = key(all[i].name);
      expect(a < b || (a === b && compareLocalIds(all[i - 1].id, all[i].id) < 0), `${all[i - 1].name} before ${all[i].name}`).toBe(true);
    }
    const reversed = (await s.get('/v1/artists?limit=5&sort=-name')).body.data.map((d: { attributes: { name: string } }) => d.attributes.name);
    expect(reversed).toEqual(
      all
        .slice(-5)
        .reverse()
        .map((a) => a.name),
    );
  });

  it.each([
    ['/v1/song/..%2F..%2Fetc%2Fpasswd', 404],
    ['/v1/song/%00', 404],
    ['/v1/song/' + 'x'.repeat(10_000), 404],
    ['/v1/song/%E0%A4%A', 400],
    ['/v1/song/omm:song:zzzzzzzzzzzzzzzz', 404],
    ['/v1/album/omm:song:0000000000000000', 404],
    ['/v1/nope', 404],
    ['/nope', 404],
  ])('a hostile path (%#) is a clean %i with the error body', async (path, status) => {
    const r = await s.get(path);
    expect(r.status).toBe(status);
    expect(r.body.error).toMatchObject({ status, requestId: r.headers['x-request-id'] });
    expect(Array.isArray(r.body.error.details)).toBe(true);
  });

  it('answers 405 with Allow for other methods, and HEAD without a body', async () => {
    const post = await s.get('/v1/song/1', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const head = await s.get('/v1/song/1', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
  });

  it('echoes a sane X-Request-Id and replaces a hostile one', async () => {
    expect((await s.get('/v1/song/1', { headers: { 'x-request-id': 'abc-123' } })).headers['x-request-id']).toBe('abc-123');
    expect((await s.get('/v1/song/1', { headers: { 'x-request-id': 'a b<script>' } })).headers['x-request-id']).not.toBe('a b<script>');
  });

  it('serves real names in any script from the bundled sample', async () => {
    const r = await s.get('/v1/songs/lookup?isrc=VNA0F1796514&include=artists');
    expect(r.body.data[0].attributes.name).toBe('Tình ca tây bắc');
    expect(r.body.data[0].relationships.artists.data.map((a: { attributes: { name: string } }) => a.attributes.name)).toEqual(['Anh Thơ', 'Việt Hoàn']);
  });
});
