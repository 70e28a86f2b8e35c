import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogIdOf, deriveOmmId } from '../src/catalog/catalog-ids.js';
import { SMALL_CATALOG, writeRaw } from './helpers/raw-fixture.js';
import { SAMPLE_RAW, serveRaw, type TestServer } from './helpers/server.js';

const omm = (type: 'song' | 'album' | 'artist', id: string) => catalogIdOf(type, deriveOmmId(type, id));

describe('/v1/catalog and /v1/lookup on a fixture catalog', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await serveRaw(writeRaw(SMALL_CATALOG));
  });
  afterAll(() => s.close());

  it('/catalog renders catalog ids, artistNames, label, and always albums/artists with data only', async () => {
    const r = await s.get(`/v1/catalog?ids=${omm('song', '101')},${omm('album', '10')},omm:artist:abcdefghij012345`);
    expect(r.status).toBe(200);
    const [song, album, artist] = r.body.data;
    expect(song).toMatchObject({
      id: omm('song', '101'),
      type: 'song',
      attributes: { name: 'Song, B', artistNames: ['Smith, John', 'Ärzte'], isrc: 'USRC17607840' },
    });
    expect(song.attributes.files).toBeUndefined();
    expect(song.attributes.artistName).toBeUndefined();
    expect(song.relationships.albums).toEqual({
      data: [
        {
          id: omm('album', '10'),
          type: 'album',
          attributes: expect.objectContaining({ upc: '036000291452', label: 'Blue Label', artworkUrl: 'https://img.example.com/a10.jpg' }),
        },
      ],
    });
    expect(song.relationships.artists.data.map((a: { id: string }) => a.id)).toEqual([omm('artist', '2'), omm('artist', '1')]);
    expect(album.attributes).toMatchObject({ name: 'First Light', label: 'Blue Label', artistNames: ['Ärzte', 'Smith, John'] });
    expect(Object.keys(album.relationships)).toEqual(['artists']);
    expect(artist).toEqual({ id: 'omm:artist:abcdefghij012345', type: 'artist', attributes: { name: '坂本龍一', genres: ['Ambient'] } });
  });

  it('/catalog by isrc and upc, and /catalog/{id}', async () => {
    expect((await s.get('/v1/catalog?isrc=usrc17607839')).body.data.map((d: { id: string }) => d.id)).toEqual([omm('song', '100'), omm('song', '102')]);
    expect((await s.get('/v1/catalog?upc=36000291452')).body.data).toEqual([]); // 11 digits: not a UPC
    expect((await s.get('/v1/catalog?upc=0036000291452')).body.data[0].id).toBe(omm('album', '10'));
    expect((await s.get(`/v1/catalog/${omm('album', '11')}`)).body.data.attributes.name).toBe('Второй');
  });

  it.each([
    ['/v1/catalog', 400, 'Provide exactly one of ids, isrc, or upc'],
    ['/v1/catalog?ids=x&upc=y', 400, 'Provide exactly one of ids, isrc, or upc'],
    [`/v1/catalog?isrc=${Array(101).fill('USRC17607839').join(',')}`, 400, 'Maximum 100 lookup values allowed'],
    [`/v1/catalog?ids=${'a'.repeat(10001)}`, 400, 'query parameter too long'],
    ['/v1/catalog?ids=100', 400, 'Invalid id. Expected omm:TYPE:ID'],
    ['/v1/catalog/100', 400, 'Invalid id. Expected omm:TYPE:ID'],
    ['/v1/catalog/omm:song:0000000000000000', 404, 'Resource not found'],
    ['/v1/lookup', 400, 'Provide exactly one of ids, isrc, or upc'],
    ['/v1/lookup?isrc=a&ids=b', 400, 'Provide exactly one of ids, isrc, or upc'],
    [`/v1/lookup?upc=${Array(101).fill('036000291452').join(',')}`, 400, 'Maximum 100 lookup values allowed'],
    ['/v1/lookup/song-1', 400, 'Invalid id. Expected omm:TYPE:ID'],
    ['/v1/lookup/omm:album:0000000000000000', 404, 'Resource not found'],
  ])('%s -> %i "%s" (the reference wording)', async (path, status, message) => {
    const r = await s.get(path);
    expect(r.status).toBe(status);
    expect(r.body.error).toMatchObject({ status, message, requestId: r.headers['x-request-id'] });
  });

  it('/lookup renders artistName (no label, no artist genres) and includes one level, ignoring the rest', async () => {
    const r = await s.get(`/v1/lookup?ids=${omm('song', '101')},${omm('album', '10')},${omm('artist', '1')}&include=albums,artists,tracks,albums.tracks`);
    const [song, album, artist] = r.body.data;
    expect(song.attributes).toMatchObject({ name: 'Song, B', artistName: 'Smith, John & Ärzte' });
    expect(song.attributes.artistNames).toBeUndefined();
    expect(Object.keys(song.relationships).sort()).toEqual(['albums', 'artists']);
    expect(song.relationships.albums.meta).toBeUndefined();
    expect(song.relationships.albums.data[0].relationships).toBeUndefined();
    expect(album.attributes.label).toBeUndefined();
    expect(Object.keys(album.relationships)).toEqual(['artists']);
    expect(artist).toEqual({ id: omm('artist', '1'), type: 'artist', attributes: { name: 'Ärzte', artworkUrl: 'https://img.example.com/ar1.jpg' } });
  });

  it('/lookup without include has no relationships; fields select lookup attributes', async () => {
    const r = await s.get(`/v1/lookup/${omm('song', '103')}?fields%5Bsong%5D=name,isrc`);
    expect(r.body.data).toEqual({ id: omm('song', '103'), type: 'song', attributes: { name: 'Quote "Q"', isrc: 'GBAYE0000351' } });
    expect((await s.get(`/v1/lookup/${omm('song', '103')}?fields%5Bsong%5D=files`)).status).toBe(400);
  });
});

/**
 * What the real desktop client of this API requires of `/v1/catalog?isrc=...` (bundled sample,
 * the Exportify songs carry ISRCs and artwork).
 */
describe('/v1/catalog?isrc= satisfies the desktop client', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await serveRaw(SAMPLE_RAW);
  });
  afterAll(() => s.close());

  it('for every ISRC of a real playlist export', async () => {
    const isrcs = ['QMFME2241679', 'VNA0F1796514'];
    const r = await s.get(`/v1/catalog?isrc=${isrcs.join(',')}`);
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThanOrEqual(2);
    const requested = new Set<string>();
    for (const song of r.body.data) {
      expect(song.type).toBe('song');
      expect(song.id).toMatch(/^omm:song:[0-9a-z]{16}$/);
      expect(isrcs).toContain(song.attributes.isrc);
      expect(Array.isArray(song.attributes.genres)).toBe(true);
      for (const rel of ['albums', 'artists']) expect(Array.isArray(song.relationships[rel].data)).toBe(true);
      expect(song.relationships.albums.data.length).toBeGreaterThan(0);
      for (const album of song.relationships.albums.data) {
        expect(album.type).toBe('album');
        expect(typeof album.attributes.name).toBe('string');
        expect(album.attributes.artworkUrl).toMatch(/^https:\/\//);
        expect(Array.isArray(album.attributes.genres)).toBe(true);
      }
      for (const artist of song.relationships.artists.data) {
        expect(artist.type).toBe('artist');
        expect(typeof artist.attributes.name).toBe('string');
        expect(Array.isArray(artist.attributes.genres)).toBe(true);
      }
      // The ids returned resolve back to themselves.
      const again = await s.get(`/v1/catalog?ids=${song.id}`);
      expect(again.body.data.map((d: { id: string }) => d.id)).toEqual([song.id]);
      requested.add(song.attributes.isrc);
    }
    expect([...requested].sort()).toEqual([...isrcs].sort());
  });
});
