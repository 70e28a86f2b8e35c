import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { startServer, type RunningServer } from '../src/serve/server.js';
import { StoredView } from '../src/catalog/views.js';
import { FormatError } from '../src/index-format/errors.js';
import { converse, responses } from './helpers/raw-http.js';
import { tempDir } from './helpers/raw-fixture.js';
import { SAMPLE_RAW } from './helpers/server.js';

/** Writes `chunks` (with `gapMs` between them) on one connection; resolves to every byte read once the server closes it or `waitMs` passes. */
const exchange = (url: string, chunks: string[], options: { gapMs?: number; waitMs?: number; readAfterMs?: number } = {}) =>
  converse(url, { chunks, ...options });

const masked = (bytes: Buffer) => bytes.toString('latin1').replace(/\r\nDate: [^\r]*/g, '\r\nDate: -');

describe('the fast HTTP core', () => {
  // One snapshot, served by both cores.
  let fast: RunningServer;
  let node: RunningServer;
  beforeAll(async () => {
    const dist = tempDir('omm-fast-core-');
    await compileCatalog({ rawDir: SAMPLE_RAW, outDir: dist });
    const serve = (fastCore: boolean) =>
      startServer({ snapshot: dist, port: 0, host: '127.0.0.1', http: { fastCore, keepAliveTimeoutMs: 1000, corsOrigins: ['https://app.example.com'] } });
    fast = await serve(true);
    node = await serve(false);
  });
  afterAll(async () => {
    await fast.close();
    await node.close();
  });

  it('answers byte for byte what node:http answers, simple requests or not', async () => {
    const first = await exchange(node.url, ['GET /v1/song/1 HTTP/1.1\nHost: t\nX-Request-Id: r1\n\n']);
    const etag = /\r\netag: ("[^"]+")/.exec(first.bytes.toString('latin1'))![1];
    const requests = [
      'GET /v1/song/1 HTTP/1.1\nHost: t\nX-Request-Id: r1\n\n',
      'HEAD /v1/song/1 HTTP/1.1\nHost: t\nX-Request-Id: r1\n\n',
      `GET /v1/song/1 HTTP/1.1\nHost: t\nX-Request-Id: r1\nIf-None-Match: ${etag}\n\n`,
      'GET /v1/song/nope HTTP/1.1\nHost: t\nX-Request-Id: r1\n\n',
      'GET /openmusic/songs?limit=3 HTTP/1.1\nHost: t\nX-Request-Id: r1\nAccept-Encoding: gzip\n\n',
      'GET /openapi.json HTTP/1.1\nHost: t\nX-Request-Id: r1\nAccept-Encoding: br\n\n',
      'GET / HTTP/1.1\nHost: t\nX-Request-Id: r1\nAccept: text/html\n\n',
      'GET /v1/songs?limit=oops HTTP/1.1\nHost: t\nX-Request-Id: r1\nOrigin: https://app.example.com\n\n',
      // Not simple: node:http's in both.
      'POST /v1/song/1 HTTP/1.1\nHost: t\nX-Request-Id: r1\nContent-Length: 2\n\nhi',
      'OPTIONS /v1/song/1 HTTP/1.1\nHost: t\nX-Request-Id: r1\nOrigin: https://a.example\nAccess-Control-Request-Method: GET\n\n',
      'GET /v1/song/1 HTTP/1.0\nX-Request-Id: r1\n\n',
      'GET /v1/song/1 HTTP/1.1\nX-Request-Id: r1\n\n',
      'GET /v1/song/1 HTTP/1.1\nHost: t\nX-Request-Id: r1\nConnection: close\n\n',
      'BLAH\n\n',
    ];
    for (const request of requests) {
      const [a, b] = await Promise.all([exchange(fast.url, [request], { waitMs: 400 }), exchange(node.url, [request], { waitMs: 400 })]);
      expect(a.bytes.length, request).toBeGreaterThan(0);
      expect(masked(a.bytes), request).toBe(masked(b.bytes));
    }
  });

  it('answers simple requests itself and counts them, and what node:http took over, in /metrics', async () => {
    const counts = async (s: RunningServer) => {
      const text = (await exchange(s.url, ['GET /metrics HTTP/1.1\nHost: t\nConnection: close\n\n'])).bytes.toString();
      const get = (outcome: string) => Number(new RegExp(`omm_http_fast_core_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? NaN);
      return { answered: get('answered'), handedOver: get('handed_over') };
    };
    const before = await counts(fast);
    await exchange(fast.url, [
      'GET /v1/song/1 HTTP/1.1\nHost: t\n\nGET /v1/song/2 HTTP/1.1\nHost: t\n\nPOST /v1/song/1 HTTP/1.1\nHost: t\nContent-Length: 0\n\n',
    ]);
    const after = await counts(fast);
    // Two songs answered here; the POST's connection and the Connection: close scrape handed over.
    expect(after.answered - before.answered).toBe(2);
    expect(after.handedOver - before.handedOver).toBe(2);
    // node:http alone: no such series.
    expect(Number.isNaN((await counts(node)).answered)).toBe(true);
  });

  it('answers pipelined requests in order, with node:http taking the connection over at the first that is not simple', async () => {
    const { bytes } = await exchange(fast.url, [
      'GET /v1/song/1 HTTP/1.1\nHost: t\n\nHEAD /v1/song/2 HTTP/1.1\nHost: t\n\nGET /v1/song/nope HTTP/1.1\nHost: t\n\n' +
        'POST /v1/song/1 HTTP/1.1\nHost: t\nContent-Length: 2\n\nhi' +
        'GET /healthz HTTP/1.1\nHost: t\n\nGET /v1/song/2 HTTP/1.1\nHost: t\n\n',
    ]);
    const all = responses(bytes, [false, true]);
    expect(all.map((r) => r.status)).toEqual([200, 200, 404, 405, 200, 200]);
    expect(JSON.parse(all[0].body.toString()).data.id).toBe('1');
    expect(JSON.parse(all[5].body.toString()).data.id).toBe('2');
  });

  it('leaves a request that arrives in pieces to node:http, which answers it', async () => {
    const { bytes } = await exchange(fast.url, ['GET /v1/song/1 HTTP/1.1\nHo', 'st: t\n\nGET /v1/song/2 HTTP/1.1\nHost: t\n\n'], { gapMs: 150 });
    expect(responses(bytes).map((r) => [r.status, JSON.parse(r.body.toString()).data.id])).toEqual([
      [200, '1'],
      [200, '2'],
    ]);
  });

  it('closes a connection idle past the keep-alive timeout', async () => {
    const started = Date.now();
    const { bytes, closed } = await exchange(fast.url, ['GET /v1/song/1 HTTP/1.1\nHost: t\n\n'], { waitMs: 5000 });
    expect(responses(bytes).map((r) => r.status)).toEqual([200]);
    expect(closed).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('reads no further while a client does not read, and loses nothing', async () => {
    const count = 400;
    const request = 'GET /v1/songs?limit=100 HTTP/1.1\nHost: t\n\n';
    const { bytes } = await exchange(fast.url, [request.repeat(count)], { readAfterMs: 300, waitMs: 4000 });
    const all = responses(bytes);
    expect(all.length).toBe(count);
    expect(new Set(all.map((r) => r.body.toString())).size).toBe(1);
    expect(all.every((r) => r.status === 200)).toBe(true);
  });

  it('gives every response its own bytes while a client does not read (the write buffer is reused only once the kernel took it)', async () => {
    // Bodies under the socket's 16 KiB high-water mark, and more of them than the kernel buffers:
    // writes then stay queued while the server goes on answering.
    const paths = ['/v1/songs?limit=10', '/v1/songs?limit=10&offset=10', '/v1/albums?limit=10', '/v1/artists?limit=10'];
    const alone = await Promise.all(
      paths.map(async (path) => responses((await exchange(fast.url, [`GET ${path} HTTP/1.1\nHost: t\n\n`])).bytes)[0].body.toString()),
    );
    expect(new Set(alone).size).toBe(paths.length);
    const count = 4000;
    const pipelined = Array.from({ length: count }, (_, i) => `GET ${paths[i % paths.length]} HTTP/1.1\nHost: t\n\n`).join('');
    const { bytes } = await exchange(fast.url, [pipelined], { readAfterMs: 300, waitMs: 8000 });
    const all = responses(bytes);
    expect(all.length).toBe(count);
    expect(bytes.length).toBeGreaterThan(8 * 2 ** 20);
    all.forEach((r, i) => expect(r.body.toString(), `response ${i}`).toBe(alone[i % paths.length]));
  });
});

describe('a stored view that fails as the response is written', () => {
  it('answers 500 on either core, and the connection and the server go on', async () => {
    const dist = tempDir('omm-fast-core-failing-view-');
    await compileCatalog({ rawDir: SAMPLE_RAW, outDir: dist });
    for (const fastCore of [true, false]) {
      const running = await startServer({ snapshot: dist, port: 0, host: '127.0.0.1', log: null, http: { fastCore } });
      try {
        // The view of song 1 fails when it is copied into the response, as one read from a page
        // that fails its CRC would (its bytes are read when the body is written, not before).
        const views = running.catalog.views!;
        const real = views.get.bind(views);
        const failing = new (class extends StoredView {
          override copyTo(): void {
            throw new FormatError('E_CHECKSUM', 'page 7 fails its CRC', 'view-v1-song.0000.rec');
          }
        })('view-v1-song', {} as never, 0, 0, 2, 2, 2);
        const one = running.catalog.resolve('song', '1');
        views.get = (iface, type, ordinal) => (iface === 'v1' && type === 'song' && ordinal === one ? failing : real(iface, type, ordinal));
        const { bytes } = await exchange(running.url, ['GET /v1/song/1 HTTP/1.1\nHost: t\n\nGET /v1/song/2 HTTP/1.1\nHost: t\n\n']);
        const got = responses(bytes);
        expect(
          got.map((r) => r.status),
          `fast core ${fastCore}`,
        ).toEqual([500, 200]);
        expect(JSON.parse(got[0].body.toString()).error.status).toBe(500);
        expect(JSON.parse(got[1].body.toString()).data.id).toBe('2');
      } finally {
        await running.close();
      }
    }
  });
});

describe('the fast core and a shutdown', () => {
  it('sends a response answered in the turn a shutdown begins before it ends the connection', async () => {
    const dist = tempDir('omm-fast-core-drain-');
    await compileCatalog({ rawDir: SAMPLE_RAW, outDir: dist });
    let running: RunningServer | undefined;
    let stopping: Promise<void> | undefined;
    // The request log is written as each response ends, in its turn: the shutdown begins there,
    // while the response still waits in the turn's batch of writes.
    const log = { write: () => ((stopping ??= running!.shutdown()), true) } as unknown as NodeJS.WritableStream;
    const events = new Writable({ write: (_chunk, _encoding, done) => done() });
    running = await startServer({ snapshot: dist, port: 0, host: '127.0.0.1', log, events });
    const { bytes, closed } = await exchange(running.url, ['GET /v1/songs?limit=1 HTTP/1.1\nHost: test\n\n'], { waitMs: 3000 });
    await stopping;
    const got = responses(bytes);
    expect(got.map((r) => r.status)).toEqual([200]);
    expect(JSON.parse(got[0].body.toString()).data).toHaveLength(1);
    expect(closed).toBe(true);
  });
});
