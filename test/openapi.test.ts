import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesOpenApi } from './helpers/openapi-validator.js';
import { SMALL_CATALOG, writeRaw } from './helpers/raw-fixture.js';
import { serveRaw, type TestServer } from './helpers/server.js';

describe('our OpenAPI document', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await serveRaw(writeRaw(SMALL_CATALOG));
  });
  afterAll(() => s.close());

  it('is served at /openapi.json as OpenAPI 3.1 and lists every interface-1 endpoint', async () => {
    const r = await s.get('/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    const paths = Object.keys(r.body.paths);
    for (const p of [
      '/v1/',
      '/v1/stations/popular',
      '/v1/stations/genres/{name}',
      '/v1/stations/{type}/{id}',
      '/v1/station/{id}',
      '/v1/station/{id}/tracks',
      '/v1/playlists',
      '/v1/playlists/lookup',
      '/v1/playlist/{id}',
      '/v1/artists',
      '/v1/artists/lookup',
      '/v1/artist/{id}',
      '/v1/artist/{id}/rel/tracks',
      '/v1/artist/{id}/rel/albums',
      '/v1/albums',
      '/v1/albums/lookup',
      '/v1/album/{id}',
      '/v1/album/{id}/rel/tracks',
      '/v1/album/{id}/rel/artists',
      '/v1/songs',
      '/v1/songs/lookup',
      '/v1/song/{id}',
      '/v1/song/{id}/rel/albums',
      '/v1/catalog',
      '/v1/catalog/{id}',
      '/v1/lookup',
      '/v1/lookup/{id}',
      '/v1/match/{type}',
      '/v1/explore',
      '/v1/search',
    ])
      expect(paths, p).toContain(p);
    // Every $ref resolves inside the document.
    const refs = JSON.stringify(r.body).match(/"\$ref":"#\/components\/schemas\/[A-Za-z]+"/g) ?? [];
    for (const ref of new Set(refs)) expect(r.body.components.schemas).toHaveProperty(ref.slice(ref.lastIndexOf('/') + 1, -1));
  });

  it('the test validator rejects what the document forbids (so passing tests mean something)', async () => {
    const song = (await s.get('/v1/song/100')).body;
    expect(assertMatchesOpenApi('/v1/song/100', 200, song)).toBe('/v1/song/{id}');
    const leaked = structuredClone(song);
    leaked.data.attributes.popularity = 5;
    expect(() => assertMatchesOpenApi('/v1/song/100', 200, leaked)).toThrow(/popularity|additional/);
    const nullGenres = structuredClone(song);
    nullGenres.data.attributes.genres = null;
    expect(() => assertMatchesOpenApi('/v1/song/100', 200, nullGenres)).toThrow(/genres/);
    const catalog = (await s.get('/v1/catalog?isrc=USRC17607839')).body;
    const wrongId = structuredClone(catalog);
    wrongId.data[0].id = '100';
    expect(() => assertMatchesOpenApi('/v1/catalog', 200, wrongId)).toThrow(/pattern/);
    expect(() => assertMatchesOpenApi('/v1/song/1', 404, { error: { status: 404, message: 'x', details: [] } })).toThrow(/requestId/);
    expect(() => assertMatchesOpenApi('/v1/nowhere', 200, {})).toThrow(/no operation/);
  });
});
