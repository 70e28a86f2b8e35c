import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_CATALOG, writeRaw } from './helpers/raw-fixture.js';
import { serveRaw, type TestServer } from './helpers/server.js';

describe('request log', () => {
  let s: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    const log = new PassThrough();
    log.setEncoding('utf8');
    let pending = '';
    log.on('data', (chunk: string) => {
      pending += chunk;
      const parts = pending.split('\n');
      pending = parts.pop()!;
      lines.push(...parts);
    });
    s = await serveRaw(writeRaw(SMALL_CATALOG), { log });
  });
  afterAll(() => s.close());

  it('writes one JSON line per request with method, path, status, bytes, ms, request id and build id', async () => {
    const ok = await s.get('/v1/song/100?fields[song]=name', { headers: { 'x-request-id': 'req-1' } });
    const missing = await s.get('/v1/song/nope');
    await new Promise((r) => setTimeout(r, 20));
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((l) => JSON.parse(l));
    expect(first).toMatchObject({
      method: 'GET',
      path: '/v1/song/100',
      status: 200,
      bytes: Buffer.byteLength(ok.text),
      requestId: 'req-1',
      buildId: s.running.catalog.buildId,
    });
    expect(typeof first.ms).toBe('number');
    expect(second).toMatchObject({ status: 404, code: 'E_NOT_FOUND', requestId: missing.headers['x-request-id'] });
  });
});
