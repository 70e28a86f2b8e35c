import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_CATALOG, writeRaw, type RawFiles } from './helpers/raw-fixture.js';
import { qs, SAMPLE_RAW, serveRaw, type TestServer } from './helpers/server.js';

/** Songs that make matching hard: one title by two artists, a live version, remasters, lookalikes. */
const MATCH_CATALOG: RawFiles = {
  artists: [
    'id,name,popularity',
    '1,Adele,90',
    '2,Lionel Richie,50',
    '3,Nirvana,80',
    '4,The Beatles,95',
    '5,Beyoncé,85',
    '6,Jay-Z,60',
    '7,Кино,40',
    '8,宇多田ヒカル,45',
  ].join('\n'),
  albums: [
    'id,name,popularity',
    '10,25,90',
    "11,Can't Slow Down,40",
    '12,Nevermind,80',
    '13,Let It Be,70',
    '14,Dangerously in Love,60',
    '15,Группа крови,30',
    '16,First Love,40',
  ].join('\n'),
  album_artists: ['album_id,artist_id,position', '10,1,1', '11,2,1', '12,3,1', '13,4,1', '14,5,1', '15,7,1', '16,8,1'].join('\n'),
  songs: [
    'id,name,duration_ms,popularity',
    's1,Hello,295000,90',
    's2,Hello,251000,50',
    's3,Hello - Live,301000,10',
    's4,Smells Like Teen Spirit,301000,80',
    's5,Let It Be - Remastered 2009,243000,70',
    's6,Crazy in Love (feat. Jay-Z),236000,85',
    's7,Группа крови,285000,40',
    's8,First Love,257000,45',
    's9,In Bloom,254000,30',
  ].join('\n'),
  song_artists: ['song_id,artist_id,position', 's6,5,1', 's6,6,2'].join('\n'),
  album_tracks: [
    'album_id,song_id,disc_number,track_number',
    '10,s1,1,1',
    '11,s2,1,1',
    '10,s3,1,2',
    '12,s4,1,1',
    '13,s5,1,1',
    '14,s6,1,1',
    '15,s7,1,1',
    '16,s8,1,1',
    '12,s9,1,2',
  ].join('\n'),
};

describe('/v1/search on a fixture catalog', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await serveRaw(writeRaw(SMALL_CATALOG));
  });
  afterAll(() => s.close());

  const names = (group: { data: { attributes: { name: string } }[] }) => group.data.map((d) => d.attributes.name);

  it('answers every group by default with {data, meta: {limit, offset, total}}, rendered like the list endpoints', async () => {
    const r = await s.get('/v1/search?term=song');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['albums', 'artists', 'playlists', 'songs', 'top']);
    expect(r.body.songs.meta).toEqual({ limit: 25, offset: 0, total: 2 });
    // Both names start with "song": the more popular ("Song, B", 9) first.
    expect(names(r.body.songs)).toEqual(['Song, B', 'Song A']);
    expect(r.body.songs.data[1]).toEqual((await s.get('/v1/song/100')).body.data);
    expect(r.body.albums).toEqual({ data: [], meta: { limit: 25, offset: 0, total: 0 } });
  });

  it('ignores case and accents, in any script', async () => {
    for (const term of ['nandu', 'ÑANDÚ', 'Nandú']) expect(names((await s.get(`/v1/search?${qs({ term, types: 'song' })}`)).body.songs)).toEqual(['Ñandú']);
    expect(names((await s.get(`/v1/search?${qs({ term: 'ARZTE', types: 'artist' })}`)).body.artists)).toEqual(['Ärzte']);
    expect(names((await s.get(`/v1/search?${qs({ term: '坂本', types: 'artist' })}`)).body.artists)).toEqual(['坂本龍一']);
    expect(names((await s.get(`/v1/search?${qs({ term: 'ВТОРОЙ', types: 'album' })}`)).body.albums)).toEqual(['Второй']);
  });

  it('finds songs and albums by their artists, and tolerates one typo per word', async () => {
    // Song 103 is credited to Zed through album 12; song 100 is on album 12 too but takes album 10's credits.
    const byArtist = (await s.get(`/v1/search?${qs({ term: 'zed', types: 'song,album' })}`)).body;
    expect(names(byArtist.songs)).toEqual(['Quote "Q"']);
    expect(names(byArtist.albums)).toEqual(['Compilation']);
    expect(names((await s.get(`/v1/search?${qs({ term: 'frist lihgt', types: 'album' })}`)).body.albums)).toEqual(['First Light']);
    expect(names((await s.get(`/v1/search?${qs({ term: 'mornign', types: 'playlist' })}`)).body.playlists)).toEqual(['Morning']);
    expect((await s.get(`/v1/search?${qs({ term: 'zzzzzz' })}`)).body.songs.meta.total).toBe(0);
  });

  it('types picks groups; top mixes types, at most 10', async () => {
    const r = await s.get(`/v1/search?${qs({ term: 'a', types: 'artist,top', limit: 50 })}`);
    expect(Object.keys(r.body).sort()).toEqual(['artists', 'top']);
    expect(r.body.top.meta.limit).toBe(10);
    expect(r.body.top.data.length).toBeLessThanOrEqual(10);
    expect(new Set(r.body.top.data.map((d: { type: string }) => d.type)).size).toBeGreaterThan(1);
  });

  it('fields[type] trims the attributes of that type', async () => {
    const r = await s.get(`/v1/search?${qs({ term: 'song', types: 'song', 'fields[song]': 'name,isrc' })}`);
    for (const d of r.body.songs.data) expect(Object.keys(d.attributes).sort()).toEqual(['isrc', 'name']);
  });

  it('rejects a missing, blank or too long term, unknown types and out-of-range paging, naming each', async () => {
    for (const path of ['/v1/search', '/v1/search?term=', '/v1/search?term=%20%20']) {
      const r = await s.get(path);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ status: 400, message: 'term is required', details: [{ param: 'term' }] });
    }
    const long = await s.get(`/v1/search?term=${'x'.repeat(257)}`);
    expect(long.status).toBe(400);
    expect(long.body.error.details[0]).toMatchObject({ param: 'term', message: 'term must be at most 256 characters' });
    expect((await s.get(`/v1/search?term=${'x'.repeat(256)}`)).status).toBe(200);
    const bad = await s.get(`/v1/search?${qs({ term: 'a', types: 'song,genre,station', limit: 101 })}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { param: string; value: unknown }) => [d.param, d.value])).toEqual([
      ['types', 'genre'],
      ['types', 'station'],
      ['limit', '101'],
    ]);
    for (const limit of ['0', '-1', 'abc']) expect((await s.get(`/v1/search?term=a&limit=${limit}`)).body.error.details[0].param).toBe('limit');
    const deep = await s.get('/v1/search?term=a&offset=990&limit=25');
    expect(deep.status).toBe(400);
    expect(deep.body.error.details[0]).toMatchObject({ param: 'offset', message: 'offset + limit must not exceed 1000 on search' });
  });
});

describe('/v1/search on the bundled sample', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await serveRaw(SAMPLE_RAW);
  });
  afterAll(() => s.close());

  it('ranks the exact name first, then names starting with the term, then other matches', async () => {
    const r = await s.get(`/v1/search?${qs({ term: 'smells like teen spirit', types: 'song' })}`);
    const first = r.body.songs.data.map((d: { attributes: { name: string } }) => d.attributes.name);
    expect(first[0]).toBe('Smells Like Teen Spirit');
    expect(first).toContain('Smells Like Teen Spirit (Ao Vivo)');
    expect(first.indexOf('Smells Like Teen Spirit (Ao Vivo)')).toBeGreaterThan(first.lastIndexOf('Smells Like Teen Spirit'));
  });

  it('pages a large result set with consistent totals: no duplicates, no gaps', async () => {
    const first = await s.get(`/v1/search?${qs({ term: 'the', types: 'song', limit: 100 })}`);
    const total = first.body.songs.meta.total;
    expect(total).toBeGreaterThan(100);
    const ids: string[] = [];
    for (let offset = 0; offset < total; offset += 100) {
      const page = await s.get(`/v1/search?${qs({ term: 'the', types: 'song', limit: 100, offset })}`);
      expect(page.body.songs.meta).toEqual({ limit: 100, offset, total });
      ids.push(...page.body.songs.data.map((d: { id: string }) => d.id));
    }
    expect(ids.length).toBe(total);
    expect(new Set(ids).size).toBe(total);
  });
});

describe('/v1/match/{type}', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await serveRaw(writeRaw(MATCH_CATALOG));
  });
  afterAll(() => s.close());

  const matchName = async (type: string, params: Record<string, string | number>) => {
    const r = await s.get(`/v1/match/${type}?${qs(params)}`);
    return r.status === 200 ? `${r.body.data.attributes.name} / ${r.body.data.attributes.artistName ?? ''}` : r.status;
  };

  it('answers the lookup attribute set with the catalog id; include is one level, other values ignored', async () => {
    const r = await s.get(`/v1/match/song?${qs({ name: 'Smells Like Teen Spirit', artist: 'Nirvana', include: 'albums,artists,tracks' })}`);
    expect(r.status).toBe(200);
    expect(r.body.data.id).toMatch(/^omm:song:[0-9a-z]{16}$/);
    expect(r.body.data.attributes).toMatchObject({ name: 'Smells Like Teen Spirit', artistName: 'Nirvana', albumName: 'Nevermind', durationMs: 301000 });
    expect(r.body.data.attributes.files).toBeUndefined();
    expect(Object.keys(r.body.data.relationships).sort()).toEqual(['albums', 'artists']);
    expect(r.body.data.relationships.albums).toEqual({ data: [expect.objectContaining({ id: expect.stringMatching(/^omm:album:/), type: 'album' })] });
    const plain = await s.get(`/v1/match/song?${qs({ name: 'Smells Like Teen Spirit' })}`);
    expect(plain.body.data.relationships).toBeUndefined();
  });

  it('picks by artist, by duration, then by popularity', async () => {
    expect(await matchName('song', { name: 'Hello' })).toBe('Hello / Adele');
    expect(await matchName('song', { name: 'hello', artist: 'Lionel Richie' })).toBe('Hello / Lionel Richie');
    expect(await matchName('song', { name: 'Hello', duration: 251500 })).toBe('Hello / Lionel Richie');
    expect(await matchName('song', { name: 'Hello (Live)', artist: 'Adele' })).toBe('Hello - Live / Adele');
  });

  it('treats version and featuring notes as optional, artists as a set, and forgives a typo or an accent', async () => {
    expect(await matchName('song', { name: 'Let It Be', artist: 'The Beatles' })).toBe('Let It Be - Remastered 2009 / The Beatles');
    expect(await matchName('song', { name: 'Crazy in Love', artist: 'Jay-Z & Beyonce' })).toBe('Crazy in Love (feat. Jay-Z) / Beyoncé & Jay-Z');
    expect(await matchName('song', { name: 'Crazy In Love', artist: 'Beyoncé' })).toBe('Crazy in Love (feat. Jay-Z) / Beyoncé & Jay-Z');
    expect(await matchName('song', { name: 'Smells Like Teen Sprit', artist: 'nirvana' })).toBe('Smells Like Teen Spirit / Nirvana');
    expect(await matchName('song', { name: 'группа крови', artist: 'КИНО' })).toBe('Группа крови / Кино');
    expect(await matchName('song', { name: 'First Love', artist: '宇多田ヒカル', album: 'First Love' })).toBe('First Love / 宇多田ヒカル');
  });

  it('answers 404 No match found rather than a wrong match', async () => {
    const negatives: Record<string, string>[] = [
      { name: 'Smells Like Green Spirit', artist: 'Nirvana' },
      { name: 'Hello', artist: 'Nirvana' },
      { name: 'Completely Unknown Title' },
      { name: 'In Bloom', artist: 'Adele' },
    ];
    for (const params of negatives) {
      const r = await s.get(`/v1/match/song?${qs(params)}`);
      expect(r.status, JSON.stringify(params)).toBe(404);
      expect(r.body.error).toMatchObject({ status: 404, message: 'No match found' });
    }
  });

  it('matches albums and artists', async () => {
    expect(await matchName('album', { name: 'nevermind', artist: 'Nirvana' })).toBe('Nevermind / Nirvana');
    expect(await matchName('album', { name: 'Nevermind', artist: 'Adele' })).toBe(404);
    const artist = await s.get(`/v1/match/artist?${qs({ name: 'beyonce' })}`);
    expect(artist.body.data).toMatchObject({ id: expect.stringMatching(/^omm:artist:/), type: 'artist', attributes: { name: 'Beyoncé' } });
  });

  it('uses the reference messages word for word', async () => {
    const cases: [string, string, string][] = [
      ['/v1/match/playlist?name=x', 'Invalid type', 'type'],
      ['/v1/match/song', 'name is required', 'name'],
      ['/v1/match/song?name=%20', 'name is required', 'name'],
      [`/v1/match/song?name=${'x'.repeat(257)}`, 'name too long', 'name'],
    ];
    for (const [path, message, param] of cases) {
      const r = await s.get(path);
      expect(r.status, path).toBe(400);
      expect(r.body.error).toMatchObject({ status: 400, message, details: [{ param }] });
      expect(r.headers['x-request-id']).toBe(r.body.error.requestId);
    }
    const duration = await s.get('/v1/match/song?name=Hello&duration=abc');
    expect(duration.body.error.details[0]).toMatchObject({ param: 'duration', value: 'abc' });
  });
});
