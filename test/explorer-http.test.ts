import { brotliDecompressSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAME, SERVICE_VERSION } from '../src/interfaces/service-info.js';
import { assertMatchesOpenApi } from './helpers/openapi-validator.js';
import { SAMPLE_RAW, serveRaw, type TestServer } from './helpers/server.js';

/** What Chromium sends when it opens a page. */
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';

/** A song of the bundled sample with an ISRC, an album and three credited artists. */
const SONG = {
  id: '0puf9yIluy9W0vpMEUoAnN',
  name: 'Bang Bang',
  isrc: 'USUM71409737',
  album: '2rDIivxBafNKpgRqlzIRSb',
  albumName: 'Sweet Talker (Deluxe Version)',
};

async function fetchRaw(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await request(url, { method: method as 'GET', headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body, text: body.toString('utf8') };
}

const assetUrls = (page: string): string[] => [...page.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);

describe('the explorer over HTTP (issue 22)', () => {
  let s: TestServer;
  let get: (path: string, headers?: Record<string, string>, method?: string) => ReturnType<typeof fetchRaw>;
  beforeAll(async () => {
    // Pages are HTML: the helper's OpenAPI check is for JSON, and is applied by hand below.
    s = await serveRaw(SAMPLE_RAW, { validate: false });
    get = (path, headers, method) => fetchRaw(`${s.url}${path}`, headers, method);
  });
  afterAll(() => s.close());

  it('answers / with exactly the JSON of today to API clients: no Accept, */*, application/json, or a tie', async () => {
    const cat = s.running.catalog;
    const expected = JSON.stringify({
      name: SERVICE_NAME,
      version: SERVICE_VERSION,
      snapshot: { buildId: cat.buildId, formatVersion: cat.snapshot.manifest.formatVersion },
      counts: cat.counts,
      links: { v1: '/v1/', openmusic: '/openmusic/', health: '/healthz', ready: '/readyz', metrics: '/metrics', openapi: '/openapi.json' },
    });
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html', 'text/html;q=0.5, application/json', 'text/html;q=0']) {
      const r = await get('/', accept === undefined ? {} : { accept });
      expect(r.status, String(accept)).toBe(200);
      expect(r.headers['content-type'], String(accept)).toBe('application/json; charset=utf-8');
      expect(r.text, String(accept)).toBe(expected);
      expect(r.headers['content-security-policy']).toBeUndefined();
      expect(r.headers.etag).toMatch(new RegExp(`^"${cat.buildId}-[0-9a-f]{8}"$`));
      assertMatchesOpenApi('/', r.status, JSON.parse(r.text));
    }
  });

  it('answers / with the HTML home page to a browser, under a Content-Security-Policy with no inline script', async () => {
    const r = await get('/', { accept: BROWSER_ACCEPT });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("img-src 'self' https: http:");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    expect(r.text.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(r.text).toContain('<label for="q">');
    expect(r.text).toContain(`<code>${s.running.catalog.buildId}</code>`);
    expect(r.text).toContain('href="/openapi.json"');
    expect(r.text).toContain('href="/metrics"');
    // Every script is a file of this server's; no inline script, handler or style attribute.
    expect([...r.text.matchAll(/<script\b[^>]*>[^<]*/g)].map((m) => m[0])).toEqual([
      expect.stringMatching(/^<script type="module" src="\/assets\/[0-9a-f]{12}\/app\.js">$/),
    ]);
    expect(r.text).not.toMatch(/\son[a-z]+=|\sstyle=|<style/i);
    expect(r.text).not.toMatch(/(?:href|src)="(?:https?:)?\/\//);
  });

  it('keeps the two answers of / apart for caches: Vary: Accept, their own ETags, each 304 on its own tag', async () => {
    const json = await get('/');
    const page = await get('/', { accept: 'text/html' });
    expect(json.headers.vary).toContain('Accept');
    expect(page.headers.vary).toContain('Accept');
    expect(page.headers.etag).not.toBe(json.headers.etag);
    expect((await get('/', { 'if-none-match': json.headers.etag as string })).status).toBe(304);
    expect((await get('/', { accept: 'text/html', 'if-none-match': page.headers.etag as string })).status).toBe(304);
    expect((await get('/', { 'if-none-match': page.headers.etag as string })).status).toBe(200);
  });

  it('serves the API as ever to a client that asks for HTML: only / is negotiated', async () => {
    for (const path of ['/v1/', `/v1/song/${SONG.id}`, `/openmusic/songs/${SONG.id}`, '/openapi.json', '/healthz']) {
      const r = await get(path, { accept: BROWSER_ACCEPT });
      expect(r.headers['content-type'], path).toBe('application/json; charset=utf-8');
      expect(r.headers.vary ?? '', path).not.toMatch(/(^|, )Accept(,|$)/);
      expect(r.text).toBe((await get(path)).text);
    }
    expect((await get('/nowhere', { accept: BROWSER_ACCEPT })).headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('answers the page routes with HTML, an ETag and 304', async () => {
    const pages: [string, string[]][] = [
      [
        `/song/${SONG.id}`,
        [
          '<h1>Bang Bang</h1>',
          `<code>${SONG.isrc}</code>`,
          `href="/album/${SONG.album}"`,
          'Jessie J',
          `href="/v1/song/${SONG.id}"`,
          `href="/openmusic/songs/${SONG.id}"`,
          '3:19',
          '2014-10-10',
          'On playlists',
          'href="/playlist/exportify-bbf0b5338556"',
        ],
      ],
      [`/album/${SONG.album}`, [`<h1>${SONG.albumName}</h1>`, `href="/song/${SONG.id}"`, '3:19', 'UPC']],
      ['/artist/1', ['<h1>AC/DC</h1>', 'Top songs', 'For Those About To Rock We Salute You']],
      ['/playlist/chinook-5?offset=100', ['<h1>90’s Music</h1>', 'rel="prev"', 'rel="next"', '101–200 of 1,477']],
      ['/search?q=bang+bang', ['Results for “bang bang”', `href="/song/${SONG.id}"`]],
      [
        `/match?name=Bang+Bang&artist=Jessie+J&isrc=${SONG.isrc.toLowerCase()}`,
        ['omm:song:', '1 song has this ISRC.', `href="/v1/match/song?name=Bang+Bang&amp;artist=Jessie+J"`],
      ],
      ['/match?name=Bang+Bang&artist=Nobody+At+All', ['<p class="no-match">No match found</p>']],
      ['/match', ['<label for="m-name">Title</label>', '<label for="m-isrc">ISRC</label>']],
    ];
    for (const [path, expected] of pages) {
      const r = await get(path, { accept: BROWSER_ACCEPT });
      expect(r.status, path).toBe(200);
      expect(r.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(r.headers['content-security-policy'], path).toContain("script-src 'self'");
      expect(r.headers['cache-control'], path).toBe('public, max-age=60');
      for (const text of expected) expect(r.text, `${path} shows ${text}`).toContain(text);
      const etag = r.headers.etag as string;
      expect(etag, path).toMatch(new RegExp(`^"${s.running.catalog.buildId}-page-[0-9a-f]{8}"$`));
      const again = await get(path, { accept: BROWSER_ACCEPT, 'if-none-match': etag });
      expect(again.status, path).toBe(304);
      expect(again.body.length).toBe(0);
    }
    // Pages compress like the API, under their own tag; HEAD sends the headers alone.
    const br = await get(`/song/${SONG.id}`, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.etag).toMatch(/-br"$/);
    expect(brotliDecompressSync(br.body).toString()).toContain('<h1>Bang Bang</h1>');
    expect((await get(`/song/${SONG.id}`, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string })).status).toBe(304);
    const head = await get(`/song/${SONG.id}`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('lists an artist’s top songs by the compile’s popularity order, most popular first', async () => {
    const cat = s.running.catalog;
    const page = (await get('/artist/1', { accept: 'text/html' })).text;
    const top = page.slice(page.indexOf('id="top-h"'), page.indexOf('id="albums-h"'));
    const ids = [...top.matchAll(/href="\/song\/([^"]+)"/g)].map((m) => m[1]);
    const all = cat.relation('artist.songs').targetsOf(cat.resolve('artist', '1'));
    expect(ids).toHaveLength(Math.min(10, all.length));
    const rank = cat.rank('song', 'popularity');
    const expected = Array.from(all)
      .sort((a, b) => rank[a] - rank[b])
      .slice(0, 10)
      .map((o) => cat.song(o).id);
    expect(ids).toEqual(expected);
  });

  it('escapes catalog text in pages: a search term is never markup', async () => {
    const r = await get('/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E%22', { accept: 'text/html' });
    expect(r.status).toBe(200);
    expect(r.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;');
    expect(r.text).not.toContain('<script>alert');
  });

  it('answers a page route that fails with an HTML page of the same status, uncached', async () => {
    const missing = await get('/song/nope', { accept: BROWSER_ACCEPT });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(missing.headers['content-security-policy']).toContain("script-src 'self'");
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.headers.etag).toBeUndefined();
    expect(missing.text).toContain('<h1>404 Not Found</h1>');
    expect(missing.text).toContain('Resource not found');
    expect(missing.text).toContain(`<code>${missing.headers['x-request-id']}</code>`);
    const bad = await get('/playlist/chinook-5?offset=-1');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('offset must be 0 or more');
    expect((await get('/song/1', {}, 'POST')).status).toBe(405);
  });

  it('serves the assets under a content hash with ETags, immutable caching and 304', async () => {
    const page = (await get('/', { accept: 'text/html' })).text;
    const urls = assetUrls(page);
    expect(urls.map((u) => u.split('/').pop()).sort()).toEqual(['app.js', 'explorer.css', 'icon.svg']);
    const types: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml; charset=utf-8' };
    for (const url of [
      ...urls,
      url0(urls).replace('app.js', 'search.js'),
      url0(urls).replace('app.js', 'match.js'),
      url0(urls).replace('app.js', 'render.js'),
    ]) {
      const r = await get(url);
      expect(r.status, url).toBe(200);
      expect(r.headers['content-type'], url).toBe(types[url.split('.').pop()!]);
      expect(r.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      const etag = r.headers.etag as string;
      expect(etag, url).toMatch(/^"[0-9a-f]{16}"$/);
      const again = await get(url, { 'if-none-match': etag });
      expect(again.status, url).toBe(304);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    // Compressed once when the server starts, and tagged apart.
    const css = urls.find((u) => u.endsWith('.css'))!;
    const plain = await get(css);
    const br = await get(css, { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.etag).toBe(`${(plain.headers.etag as string).slice(0, -1)}-br"`);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect((await get(css, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string })).status).toBe(304);
  });

  it('answers an unknown asset, or one of another version, with a 404 in the API error style', async () => {
    const app = url0(assetUrls((await get('/', { accept: 'text/html' })).text));
    for (const url of [
      app.replace('app.js', 'nope.js'),
      app.replace(/\/assets\/[0-9a-f]+\//, '/assets/000000000000/'),
      '/assets/x',
      app.replace('app.js', '..%2F..%2Fpackage.json'),
    ]) {
      const r = await get(url, { accept: BROWSER_ACCEPT });
      expect(r.status, url).toBe(404);
      expect(r.headers['content-type'], url).toBe('application/json; charset=utf-8');
      const body = JSON.parse(r.text);
      expect(body, url).toEqual({ error: { status: 404, message: expect.any(String), details: [], requestId: r.headers['x-request-id'] } });
    }
  });
});

describe('a server started without the explorer (omm serve --explorer off)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await serveRaw(SAMPLE_RAW, { validate: false, explorer: false });
  });
  afterAll(() => s.close());

  it('answers / with the service info to a browser too, and not varying by Accept', async () => {
    const r = await fetchRaw(`${s.url}/`, { accept: BROWSER_ACCEPT });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(r.text).name).toBe(SERVICE_NAME);
    expect(String(r.headers.vary ?? '')).not.toMatch(/accept(?!-)/i);
  });

  it('has no pages and no assets: each is a 404 in the API error style', async () => {
    for (const path of ['/search?q=bang', `/song/${SONG.id}`, '/match', '/assets/000000000000/app.js']) {
      const r = await fetchRaw(`${s.url}${path}`, { accept: BROWSER_ACCEPT });
      expect(r.status, path).toBe(404);
      expect(r.headers['content-type'], path).toBe('application/json; charset=utf-8');
    }
  });

  it('serves the API as with the explorer', async () => {
    for (const path of [`/v1/song/${SONG.id}`, `/openmusic/songs/${SONG.id}`]) {
      const r = await fetchRaw(`${s.url}${path}`, { accept: BROWSER_ACCEPT });
      expect(r.status, path).toBe(200);
      expect(r.headers['content-type'], path).toBe('application/json; charset=utf-8');
      expect(r.text, path).toContain(SONG.name);
    }
  });
});

function url0(urls: string[]): string {
  return urls.find((u) => u.endsWith('/app.js'))!;
}
