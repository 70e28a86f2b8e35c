import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import type { HttpOptions } from '../src/serve/http-options.js';
import { startServer, type RunningServer } from '../src/serve/server.js';
import { converse, maskedResponse, responses } from './helpers/raw-http.js';
import { tempDir } from './helpers/raw-fixture.js';
import { SAMPLE_RAW } from './helpers/server.js';

/**
 * Issue 45: the edges of a connection (a client's FIN, a reader that stalls, the keep-alive
 * timeout, a connection that never sends, more headers than node:http keeps), each played with
 * a raw node:net client against the fast core and against node:http (`--http-core node`, the
 * reference the docs name), which must answer alike. Default timeouts unless a test says.
 */
const CORES = [
  ['fast core', true],
  ['node:http', false],
] as const;

const OPENAPI = 'GET /openapi.json HTTP/1.1\nHost: x\nAccept-Encoding: identity\n\n';

/** `count` pipelined GET /healthz requests, padded with X-Pad to exactly `bytes` bytes in all. */
function paddedHealthChecks(count: number, bytes: number): string {
  const request = (pad: number) => `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(pad)}\r\n\r\n`;
  const bare = request(0).length;
  const each = Math.floor(bytes / count);
  let out = '';
  for (let i = 0; i < count; i++) out += request((i < count - 1 ? each : bytes - out.length) - bare);
  return out;
}

describe.concurrent('a connection at its edges, on either core (issue 45)', () => {
  let dist: string;
  const servers = new Map<string, RunningServer>();
  const serve = async (name: string, fastCore: boolean, http: Partial<HttpOptions> = {}) => {
    const running = await startServer({ snapshot: dist, port: 0, host: '127.0.0.1', log: null, http: { ...http, fastCore } });
    servers.set(name, running);
    return running.url;
  };
  const url = (core: string, variant = 'defaults') => servers.get(`${core} ${variant}`)!.url;
  let openapi: Buffer;

  beforeAll(async () => {
    dist = tempDir('omm-edges-');
    await compileCatalog({ rawDir: SAMPLE_RAW, outDir: dist });
    for (const [core, fastCore] of CORES) {
      await serve(`${core} defaults`, fastCore);
      await serve(`${core} quick`, fastCore, { headersTimeoutMs: 1000 });
      await serve(`${core} stall`, fastCore, { keepAliveTimeoutMs: 500, writeStallTimeoutMs: 2000 });
    }
    openapi = responses((await converse(url('node:http'), { chunks: [OPENAPI] })).bytes)[0].body;
    expect(openapi.length).toBeGreaterThan(100_000);
  });
  afterAll(async () => {
    for (const running of servers.values()) await running.close();
  });

  it.each(CORES)('%s answers all 40 requests pipelined before a half-close and read late, then closes', async (core) => {
    const { bytes, closed } = await converse(url(core), { chunks: [OPENAPI.repeat(40)], fin: true, readAfterMs: 500, waitMs: 5000 });
    const all = responses(bytes);
    expect(all.length).toBe(40);
    all.forEach((r, i) => {
      expect(r.status, `response ${i}`).toBe(200);
      expect(r.body.equals(openapi), `response ${i}`).toBe(true);
    });
    expect(closed).toBe(true);
  });

  it.each(CORES)('%s answers a burst of exactly 65,536 bytes followed by a FIN', async (core) => {
    const burst = paddedHealthChecks(65, 65_536);
    expect(burst.length).toBe(65_536);
    const { bytes, closed } = await converse(url(core), { chunks: [burst], raw: true, fin: true, readAfterMs: 500, waitMs: 3000 });
    const all = responses(bytes);
    expect(all.map((r) => r.status)).toEqual(Array(65).fill(200));
    expect(all.every((r) => r.body.toString() === '{"status":"ok"}')).toBe(true);
    expect(closed).toBe(true);
  });

  it.each(CORES)(
    '%s finishes every response to a reader that stops reading for 12 s mid-download',
    async (core) => {
      const { bytes } = await converse(url(core), { chunks: [OPENAPI.repeat(40)], stallAfterBytes: 2 ** 20, stallMs: 12_000, waitMs: 17_000 });
      const all = responses(bytes);
      expect(all.length).toBe(40);
      all.forEach((r, i) => expect(r.body.equals(openapi), `response ${i}`).toBe(true));
    },
    20_000,
  );

  it.each(CORES)(
    '%s answers a request sent 300 ms after the advertised keep-alive timeout, and closes the idle connection a second after it',
    async (core) => {
      const request = 'GET /healthz HTTP/1.1\nHost: x\n\n';
      const { bytes, closed, closedAtMs, arrivals } = await converse(url(core), { chunks: [request], later: { atMs: 5300, chunk: request }, waitMs: 13_000 });
      const all = responses(bytes);
      expect(all.map((r) => r.status)).toEqual([200, 200]);
      expect(all[0].head).toMatch(/\r\nKeep-Alive: timeout=5(\r|$)/);
      // Closed the keep-alive timeout plus node:http's second after the last response, not before.
      expect(closed).toBe(true);
      const idle = closedAtMs! - arrivals[arrivals.length - 1];
      expect(idle).toBeGreaterThanOrEqual(5900);
      expect(idle).toBeLessThan(7500);
    },
    15_000,
  );

  it.each(CORES)('%s answers 408 to a new connection that sends nothing within the headers timeout', async (core) => {
    const { bytes, closed, closedAtMs } = await converse(url(core, 'quick'), { chunks: [], waitMs: 4000 });
    expect(bytes.toString('latin1')).toBe('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    expect(closed).toBe(true);
    expect(closedAtMs).toBeGreaterThanOrEqual(950);
  });

  it.each(CORES)('%s cuts a response only once the client has read nothing for the write-stall limit', async (core) => {
    // A keep-alive timeout of 0.5 s and a write-stall limit of 2 s: a reader that stalls 1.6 s
    // (past the idle limit) gets everything; one that stalls 6 s finds the connection cut.
    const request = { chunks: [OPENAPI.repeat(40)], waitMs: 9000 };
    const [short, long] = await Promise.all([
      converse(url(core, 'stall'), { ...request, readAfterMs: 1600 }),
      converse(url(core, 'stall'), { ...request, readAfterMs: 6000 }),
    ]);
    expect(responses(short.bytes).length).toBe(40);
    expect(responses(short.bytes).every((r) => r.body.equals(openapi))).toBe(true);
    expect(long.closed).toBe(true);
    expect(long.bytes.length).toBeLessThan(40 * openapi.length);
  });

  it('leaves a request with more headers than node:http keeps to node:http, on the fast core too', async () => {
    const request = (count: number) => `GET /v1/song/1 HTTP/1.1\n${Array.from({ length: count - 1 }, (_, i) => `a${i}:\n`).join('')}Host: x\n\n`;
    for (const [count, status] of [
      [1000, 200],
      [1001, 400],
    ] as const) {
      const [fast, node] = await Promise.all(CORES.map(([core]) => converse(url(core), { chunks: [request(count)] })));
      const [a, b] = [responses(fast.bytes), responses(node.bytes)];
      expect(
        b.map((r) => r.status),
        `${count} headers`,
      ).toEqual([status]);
      expect(a.map(maskedResponse), `${count} headers`).toEqual(b.map(maskedResponse));
    }
  });

  it('answers the requests pipelined before a malformed one on the fast core, where node:http drops them', async () => {
    // A known difference, kept on purpose: node:http meets the malformed request in the same
    // read as the others, answers 400 only if no response has begun, and closes with the
    // answers still queued unsent. The fast core answers each request before it, then hands the
    // connection to node:http, which answers the malformed one 400 and closes.
    const burst = 'GET /healthz HTTP/1.1\nHost: x\n\n'.repeat(5) + 'BLAH /\n\n';
    const [fast, node] = await Promise.all(CORES.map(([core]) => converse(url(core), { chunks: [burst], waitMs: 1500 })));
    expect(responses(fast.bytes).map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 400]);
    expect(responses(node.bytes).length).toBeLessThan(6);
    expect(fast.closed && node.closed).toBe(true);
  });
});
