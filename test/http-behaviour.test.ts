import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_CATALOG, writeRaw } from './helpers/raw-fixture.js';
import { SAMPLE_RAW, serveRaw, type TestServer } from './helpers/server.js';

async function raw(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await request(url, { method: method as 'GET', headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body };
}

/** Prometheus text format: every line a comment or `name{labels} value`. */
function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?[0-9.e+]+|NaN|\+Inf)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${JSON.stringify(line)}`);
    samples.set(`${m[1]}${m[2] ?? ''}`, Number(m[3]));
  }
  return samples;
}

describe('HTTP behaviour', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await serveRaw(SAMPLE_RAW, { http: { corsOrigins: ['https://app.example.com'] } });
  });
  afterAll(() => s.close());

  it('sends a strong ETag tied to the build and answers If-None-Match with 304', async () => {
    const first = await raw(`${s.url}/v1/song/1`);
    expect(first.status).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(new RegExp(`^"${s.running.catalog.buildId}-[0-9a-f]{8}"$`));
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const again = await raw(`${s.url}/v1/song/1`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect((await raw(`${s.url}/v1/song/1`, { 'if-none-match': `W/${etag}, "other"` })).status).toBe(304);
    expect((await raw(`${s.url}/v1/song/1`, { 'if-none-match': '"stale-build-00000000"' })).status).toBe(200);
    // Errors and volatile routes are never cached.
    const missing = await raw(`${s.url}/v1/song/nope`);
    expect(missing.status).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
    expect(missing.headers['cache-control']).toBe('no-store');
    expect((await raw(`${s.url}/readyz`)).headers['cache-control']).toBe('no-store');
  });

  it('compresses with brotli or gzip by Accept-Encoding, with its own ETag', async () => {
    const plain = await raw(`${s.url}/openapi.json`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await raw(`${s.url}/openapi.json`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    const gz = await raw(`${s.url}/v1/search?term=love`, { 'accept-encoding': 'gzip;q=1, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString('utf8'))).toEqual((await s.get('/v1/search?term=love')).body);
    // Small bodies go out as they are.
    expect((await raw(`${s.url}/healthz`, { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
    expect((await raw(`${s.url}/openapi.json`, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string })).status).toBe(304);
  });

  it('answers CORS for allowed origins only, and preflights', async () => {
    const ok = await raw(`${s.url}/v1/song/1`, { origin: 'https://app.example.com' });
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(ok.headers['access-control-expose-headers']).toContain('ETag');
    expect(ok.headers.vary).toContain('Origin');
    const other = await raw(`${s.url}/v1/song/1`, { origin: 'https://evil.example.net' });
    expect(other.status).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await raw(
      `${s.url}/v1/song/1`,
      { origin: 'https://app.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-request-id' },
      'OPTIONS',
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD');
    expect(preflight.headers['access-control-allow-headers']).toBe('x-request-id');
  });

  it('serves HEAD without a body, refuses other methods with 405 and Allow, caps URL length with 414', async () => {
    const get = await raw(`${s.url}/v1/song/1`);
    const head = await raw(`${s.url}/v1/song/1`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    for (const method of ['POST', 'DELETE', 'PUT', 'OPTIONS']) {
      const r = await raw(`${s.url}/v1/song/1`, {}, method);
      expect(r.status, method).toBe(405);
      expect(r.headers.allow).toBe('GET, HEAD');
    }
    const om = await raw(`${s.url}/openmusic/songs/1`, {}, 'POST');
    expect(JSON.parse(om.body.toString()).error).toMatchObject({ code: 405, title: 'Method Not Allowed' });
    const long = await raw(`${s.url}/v1/search?term=${'a'.repeat(13_000)}`);
    expect(long.status).toBe(414);
    expect(JSON.parse(long.body.toString()).error).toMatchObject({ status: 414, message: expect.stringContaining('12288') });
    // The /catalog limit (10000 characters per parameter) still answers with its own 400.
    expect((await raw(`${s.url}/v1/catalog?ids=${'a'.repeat(10_001)}`)).status).toBe(400);
  });

  it('exposes Prometheus metrics by route and status, with the snapshot in service', async () => {
    await s.get('/v1/song/1');
    await s.get('/v1/song/2');
    await s.get('/v1/song/nope');
    const res = await raw(`${s.url}/metrics`);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const m = parseMetrics(res.body.toString('utf8'));
    expect(m.get('omm_http_requests_total{route="/v1/song/:id",status="200"}')).toBeGreaterThanOrEqual(2);
    expect(m.get('omm_http_requests_total{route="/v1/song/:id",status="404"}')).toBeGreaterThanOrEqual(1);
    expect(m.get('omm_http_request_duration_seconds_count{route="/v1/song/:id"}')).toBe(
      m.get('omm_http_request_duration_seconds_bucket{route="/v1/song/:id",le="+Inf"}'),
    );
    expect(m.get(`omm_snapshot_info{build_id="${s.running.catalog.buildId}"}`)).toBe(1);
    // Shards are read when their table is first used: the manifest and what three songs needed.
    const snapshot = s.running.catalog.snapshot;
    expect(m.get('omm_snapshot_open_shards')).toBe(snapshot.openedShards().length);
    expect(m.get('omm_snapshot_open_shards')).toBeGreaterThan(1);
    expect(m.get('omm_snapshot_open_shards')).toBeLessThan(snapshot.manifest.shards.length + 1);
    expect(m.get('omm_snapshot_mapped_bytes')).toBeGreaterThan(0);
    expect(m.get('omm_snapshot_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(m.get('process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});

describe('rate limit', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await serveRaw(writeRaw(SMALL_CATALOG), { http: { rateLimit: 1, rateLimitBurst: 3 } });
  });
  afterAll(() => s.close());

  it('answers 429 with Retry-After past the burst, in each interface style', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await raw(`${s.url}/v1/song/100`)).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await raw(`${s.url}/v1/song/100`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(limited.body.toString()).error).toMatchObject({ status: 429, message: expect.stringMatching(/^Too many requests/) });
    const om = await raw(`${s.url}/openmusic/songs/100`);
    expect(om.status).toBe(429);
    expect(JSON.parse(om.body.toString()).error).toMatchObject({ code: 429, title: 'Too Many Requests' });
    const metrics = parseMetrics((await raw(`${s.url}/metrics`)).body.toString());
    expect(metrics.get('omm_rate_limited_total')).toBeGreaterThanOrEqual(2);
  });
});
