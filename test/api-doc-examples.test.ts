import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_RAW, serveRaw, type TestServer } from './helpers/server.js';

/**
 * Runs every curl example of docs/api-v1.md and docs/api-openmusic.md against the bundled
 * sample: each must answer 200, or the status its `# <status>` comment names (and, through the
 * helper, match the OpenAPI document and, for /openmusic, the reference schemas). A doc example
 * that goes stale fails here.
 */
const examplesOf = (file: string) =>
  [...readFileSync(new URL(`../docs/${file}`, import.meta.url), 'utf8').matchAll(/^curl -s '(http:\/\/localhost:8080[^']+)'(?:\s+#\s*(\d{3}))?\s*$/gm)].map(
    (m) => ({
      path: m[1].slice('http://localhost:8080'.length),
      status: Number(m[2] ?? 200),
    }),
  );
const examples = examplesOf('api-v1.md');
const openMusicExamples = examplesOf('api-openmusic.md');

describe('docs/api-v1.md examples', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await serveRaw(SAMPLE_RAW);
  });
  afterAll(() => s.close());

  it('cover every endpoint of the document', () => {
    expect(examples.length).toBeGreaterThan(50);
    for (const p of [
      '/v1/match/',
      '/v1/search',
      '/v1/catalog/',
      '/v1/lookup/',
      '/v1/explore',
      '/v1/stations/genres/',
      '/v1/station/',
      '/v1/playlists/lookup',
      '/openapi.json',
    ]) {
      expect(
        examples.some((e) => e.path.startsWith(p)),
        p,
      ).toBe(true);
    }
  });

  it('cover every interface-2 endpoint', () => {
    for (const p of [
      '/openmusic/',
      '/openmusic/songs/',
      '/openmusic/songs?',
      '/openmusic/albums?',
      '/openmusic/artists?',
      '/openmusic/playlists?',
      '/openmusic/stations/artist/',
      '/openmusic/stations/genre/',
      '/openmusic/stations/popular/rel/tracks',
      '/openmusic/search?',
      '/openmusic/search/songs',
      '/openmusic/search/albums',
      '/openmusic/search/artists',
      '/openmusic/search/playlists',
    ]) {
      expect(
        openMusicExamples.some((e) => e.path.startsWith(p)),
        p,
      ).toBe(true);
    }
    for (const rel of ['/rel/albums', '/rel/artists', '/rel/lyrics', '/rel/tracks', '/rel/songs'])
      expect(
        openMusicExamples.some((e) => e.path.includes(rel)),
        rel,
      ).toBe(true);
  });

  it('answer as documented', async () => {
    for (const e of [...examples, ...openMusicExamples]) {
      const r = await s.get(e.path.replace(/\[/g, '%5B').replace(/\]/g, '%5D'));
      expect(r.status, `${e.path}: ${r.text.slice(0, 300)}`).toBe(e.status);
      if (e.status === 200 && e.path.startsWith('/v1/match/')) expect(r.body.data.id).toMatch(/^omm:/);
    }
  });
});
