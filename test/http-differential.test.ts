import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { startServer, type RunningServer } from '../src/serve/server.js';
import { converse, maskedResponse, responses, type Conversation } from './helpers/raw-http.js';
import { tempDir } from './helpers/raw-fixture.js';
import { SAMPLE_RAW } from './helpers/server.js';

/**
 * The fast core against node:http (issue 45): a seeded generator makes byte sequences
 * (pipelines of simple and other requests, split at random points, sent with gaps, ended by a
 * half-close or not, read at once, late or with a stall mid-way), each is played on both
 * cores, and what comes back must be the same response by response (dates and generated
 * request ids aside), with the connection closed on both or on neither.
 */
const SEED = Number(process.env.OMM_DIFF_SEED ?? 45);
const CASES = 64;

/** mulberry32: a small seeded generator, the same sequence for the same seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Request {
  readonly text: string;
  readonly head?: boolean;
  /** The server closes the connection after it (nothing after it is generated). */
  readonly last?: boolean;
  /** A large body (a stall then fills the socket's buffers). */
  readonly large?: boolean;
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: t\r\nX-Request-Id: r\r\n${extra}\r\n`;

/** The kinds of request a client sends: most of them simple, each other kind node:http's. */
function pickRequest(next: () => number, id: number): Request {
  const n = 1 + Math.floor(next() * 40);
  const kinds: (() => Request)[] = [
    () => ({ text: get(`/v1/song/${n}`) }),
    () => ({ text: get(`/openmusic/songs/${n}`) }),
    () => ({ text: get('/healthz') }),
    () => ({ text: get(`/v1/songs?limit=${1 + (n % 5)}&offset=${n}`) }),
    () => ({ text: get(`/v1/search?term=love&types=song&limit=${1 + (n % 4)}`) }),
    () => ({ text: get(`/v1/albums?limit=2&include=artists`, 'Accept-Encoding: gzip\r\n') }),
    () => ({ text: get('/v1/song/nope') }),
    () => ({ text: get(`/v1/song/${n}`, 'Origin: https://a.example\r\n') }),
    () => ({ text: `HEAD /v1/song/${n} HTTP/1.1\r\nHost: t\r\nX-Request-Id: r\r\n\r\n`, head: true }),
    () => ({ text: get('/openapi.json', 'Accept-Encoding: identity\r\n'), large: true }),
    () => ({ text: `POST /v1/song/${n} HTTP/1.1\r\nHost: t\r\nX-Request-Id: r\r\nContent-Length: 5\r\n\r\nhello` }),
    () => ({ text: `OPTIONS /v1/song/${n} HTTP/1.1\r\nHost: t\r\nX-Request-Id: r\r\nOrigin: https://a.example\r\nAccess-Control-Request-Method: GET\r\n\r\n` }),
    () => ({ text: `GET /v1/song/${n} HTTP/1.1\r\nHost: t\r\nX-Request-Id: r\r\n${Array.from({ length: 1000 }, (_, i) => `h${i}:\r\n`).join('')}\r\n` }),
    () => ({ text: get(`/v1/song/${n}`, 'Connection: close\r\n'), last: true }),
    () => ({ text: `GET /v1/song/${n} HTTP/1.0\r\nX-Request-Id: r\r\n\r\n`, last: true }),
  ];
  // A malformed request only opens a conversation: node:http, reading one behind others in the
  // same chunk, answers 400 and closes without the answers still queued before it, where the
  // fast core answers those first (the test below).
  if (id === 0) kinds.push(() => ({ text: 'BLAH /\r\n\r\n', last: true }));
  // Simple requests nine times in ten.
  const simple = 9;
  const pick = next() < 0.9 ? Math.floor(next() * simple) : simple + Math.floor(next() * (kinds.length - simple));
  return kinds[pick]();
}

/** Lines with repeats folded: `20 × GET /healthz HTTP/1.1`. */
function runs(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j < lines.length && lines[j] === lines[i]) j++;
    out.push(j - i > 1 ? `${j - i} × ${lines[i]}` : lines[i]);
    i = j;
  }
  return out;
}

interface Case {
  readonly plan: Conversation;
  readonly heads: boolean[];
  readonly describe: string;
}

/** One generated conversation: its requests, where they are split, how it ends and how it is read. */
function makeCase(next: () => number, index: number): Case {
  const requests: Request[] = [];
  if (next() < 0.3) {
    // A burst: one request many times over, sent at once (the client's buffers, and ours, fill).
    const one = next() < 0.5 ? { text: get('/openapi.json', 'Accept-Encoding: identity\r\n'), large: true } : { text: get('/v1/songs?limit=50') };
    requests.push(...Array<Request>(20 + Math.floor(next() * 40)).fill(one));
  } else {
    const count = 1 + Math.floor(next() * 12);
    for (let i = 0; i < count; i++) {
      const request = pickRequest(next, i);
      requests.push(request);
      if (request.last) break;
    }
  }
  const fin = next() < 0.5;
  let bytes = requests.map((r) => r.text).join('');
  const ends = requests[requests.length - 1].last;
  // Sometimes a request cut short by the FIN (node:http answers it 400).
  const cutTail = fin && !ends && next() < 0.2;
  if (cutTail) bytes += 'GET /v1/song/1 HTTP/1.1\r\nHo';
  const splits = [...new Set(Array.from({ length: Math.floor(next() * 4) }, () => 1 + Math.floor(next() * (bytes.length - 1))))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let at = 0;
  for (const s of [...splits, bytes.length]) {
    chunks.push(bytes.slice(at, s));
    at = s;
  }
  const gapMs = splits.length ? Math.floor(next() * 40) : 0;
  const reading = next();
  const large = requests.some((r) => r.large);
  const plan: Conversation = {
    chunks,
    raw: true,
    gapMs,
    fin,
    // Read at once, late, or stop reading part way (after the first few KiB) for a while.
    ...(reading < 0.5
      ? {}
      : reading < 0.75
        ? { readAfterMs: 50 + Math.floor(next() * 600) }
        : { stallAfterBytes: 1 + Math.floor(next() * 4096), stallMs: 100 + Math.floor(next() * 900) }),
    waitMs: 1600 + gapMs * chunks.length + (large ? 1500 : 0),
  };
  const heads = requests.map((r) => r.head === true);
  const describe = `case ${index} (seed ${SEED}): ${JSON.stringify({ requests: runs(requests.map((r) => r.text.split('\r\n')[0])), cutTail, splits, gapMs, fin, readAfterMs: plan.readAfterMs, stallAfterBytes: plan.stallAfterBytes, stallMs: plan.stallMs })}`;
  return { plan, heads, describe };
}

describe('the fast core and node:http answer the same byte sequences alike', () => {
  let fast: RunningServer;
  let node: RunningServer;
  beforeAll(async () => {
    const dist = tempDir('omm-differential-');
    await compileCatalog({ rawDir: SAMPLE_RAW, outDir: dist });
    const serve = (fastCore: boolean) =>
      startServer({ snapshot: dist, port: 0, host: '127.0.0.1', log: null, http: { fastCore, corsOrigins: ['https://a.example'] } });
    fast = await serve(true);
    node = await serve(false);
  });
  afterAll(async () => {
    await fast.close();
    await node.close();
  });

  it(`response by response, for ${CASES} generated conversations`, async () => {
    const next = random(SEED);
    const cases = Array.from({ length: CASES }, (_, i) => makeCase(next, i));
    let answered = 0;
    let finished = 0;
    // Eight conversations at a time, each played on both cores at once.
    for (let i = 0; i < cases.length; i += 8) {
      await Promise.all(
        cases.slice(i, i + 8).map(async ({ plan, heads, describe }) => {
          const [a, b] = await Promise.all([converse(fast.url, plan), converse(node.url, plan)]);
          const [fromFast, fromNode] = [responses(a.bytes, heads).map(maskedResponse), responses(b.bytes, heads).map(maskedResponse)];
          expect(fromFast.length, describe).toBe(fromNode.length);
          fromNode.forEach((expected, r) => expect(fromFast[r], `${describe}, response ${r}`).toBe(expected));
          expect(a.closed, `${describe}: closed`).toBe(b.closed);
          answered += fromNode.length;
          if (b.closed) finished++;
        }),
      );
    }
    // The generator reached both kinds of ending and answered a fair number of requests.
    expect(answered).toBeGreaterThan(CASES * 2);
    expect(finished).toBeGreaterThan(CASES / 4);
    expect(finished).toBeLessThan(CASES);
  }, 120_000);
});
