import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalog } from '../src/generate/generate.js';
import { tempDir } from './helpers/raw-fixture.js';
import { qs, serveRaw, type TestServer } from './helpers/server.js';

/**
 * Interface 1 on a generated catalog (thousands of resources, several scripts, UPC-A and
 * EAN-13, shared ISRCs): every response is also validated against our OpenAPI document by the
 * test helper.
 */
describe('interface 1 on a generated catalog', () => {
  let s: TestServer;
  let songs: any[];
  beforeAll(async () => {
    const raw = tempDir('omm-gen-');
    await generateCatalog({ songs: 3000, seed: 11, out: raw });
    s = await serveRaw(raw);
    songs = [];
    for (let offset = 0; offset < 300; offset += 100) songs.push(...(await s.get(`/v1/songs?limit=100&offset=${offset}&sort=-dateAdded`)).body.data);
  }, 120_000);
  afterAll(() => s.close());

  it('pages every list in every order with consistent totals: no duplicates, no gaps', async () => {
    const stats = (await s.get('/v1/')).body.stats;
    for (const [list, sorts, count] of [
      ['albums', ['name', '-releaseDate', 'dateAdded'], stats.albums],
      ['artists', ['-name', 'dateAdded'], stats.artists],
    ] as const) {
      for (const sort of sorts) {
        const ids: string[] = [];
        for (let offset = 0; offset < count; offset += 100) {
          const page = await s.get(`/v1/${list}?${qs({ limit: 100, offset, sort })}`);
          expect(page.body.meta).toEqual({ limit: 100, offset, total: count });
          ids.push(...page.body.data.map((d: { id: string }) => d.id));
        }
        expect(ids.length, `${list} ${sort}`).toBe(count);
        expect(new Set(ids).size, `${list} ${sort}`).toBe(count);
      }
    }
  });

  it('renders three levels of include with limits and sorts on many resources', async () => {
    for (const song of songs.slice(0, 20)) {
      const r = await s.get(
        `/v1/song/${song.id}?${qs({ include: 'albums.tracks.artists', 'limit[album:tracks]': 3, 'sort[album:tracks]': '-name', 'fields[artist]': 'name' })}`,
      );
      expect(r.status).toBe(200);
      for (const album of r.body.data.relationships.albums.data) {
        const tracks = album.relationships.tracks;
        expect(tracks.data.length).toBe(Math.min(3, tracks.meta.total));
        // The same order and cut as the album's own relationship endpoint.
        const own = await s.get(`/v1/album/${album.id}/rel/tracks?${qs({ sort: '-name', limit: 3 })}`);
        expect(tracks.data.map((t: { id: string }) => t.id)).toEqual(own.body.data.map((t: { id: string }) => t.id));
        for (const t of tracks.data) for (const a of t.relationships.artists.data) expect(Object.keys(a.attributes)).toEqual(['name']);
      }
    }
  });

  it('looks up ISRCs case-insensitively, in request order, with unknown values left out', async () => {
    const withIsrc = songs.filter((x) => x.attributes.isrc).slice(0, 10);
    const isrcs = withIsrc.map((x) => x.attributes.isrc);
    const r = await s.get(`/v1/songs/lookup?${qs({ isrc: [isrcs[1].toLowerCase(), 'ZZZZZ0000000', isrcs[0]].join(',') })}`);
    expect(r.body.data.map((d: { attributes: { isrc: string } }) => d.attributes.isrc)[0]).toBe(isrcs[1]);
    expect(r.body.data.every((d: { attributes: { isrc: string } }) => d.attributes.isrc === isrcs[0] || d.attributes.isrc === isrcs[1])).toBe(true);
  });

  it('finds an album by its UPC-A and by the same code as EAN-13 with a leading zero', async () => {
    const albums = (await s.get('/v1/albums?limit=100')).body.data;
    const upcA = albums.find((a: { attributes: { upc?: string } }) => a.attributes.upc?.length === 12);
    expect(upcA).toBeDefined();
    const byA = await s.get(`/v1/albums/lookup?upc=${upcA.attributes.upc}`);
    const byEan = await s.get(`/v1/albums/lookup?upc=0${upcA.attributes.upc}`);
    expect(byA.body.data.map((a: { id: string }) => a.id)).toContain(upcA.id);
    expect(byEan.body.data).toEqual(byA.body.data);
    const catalog = await s.get(`/v1/catalog?upc=0${upcA.attributes.upc}`);
    expect(catalog.body.data[0].id).toMatch(/^omm:album:/);
  });

  it('finds songs by title in the top ten of search, and matches title and artist back to an equal song', async () => {
    let top10 = 0;
    for (const song of songs.slice(0, 40)) {
      const r = await s.get(`/v1/search?${qs({ term: song.attributes.name, types: 'song', limit: 10 })}`);
      if (r.body.songs.data.some((d: { id: string }) => d.id === song.id)) top10++;
      const m = await s.get(`/v1/match/song?${qs({ name: song.attributes.name, artist: song.attributes.artistName })}`);
      expect(m.status).toBe(200);
      // Generated titles repeat, so the match may be another song with the same title and credits.
      expect(m.body.data.attributes.name).toBe(song.attributes.name);
      expect(m.body.data.attributes.artistName).toBe(song.attributes.artistName);
    }
    expect(top10).toBeGreaterThanOrEqual(20);
  });
});
