import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { methodNotAllowed, Router, type Match } from './router.js';
import { notFound, rateLimited, uriTooLong } from './api-error.js';
import type { Catalog } from '../catalog/catalog.js';
import { CatalogHolder, type Lease } from './catalog-holder.js';
import type { Handler } from './context.js';
import { errorResponse, type ErrorStyle } from './error-response.js';
import { Explorer, HTML_TYPE, PAGE_HEADERS } from './explorer/index.js';
import { prefersHtml } from '../http/accept.js';
import { BuildScoped } from '../http/build-scoped.js';
import { compress, COMPRESS_MIN_BYTES, negotiateEncoding, type Encoding } from '../http/compression.js';
import { CorsPolicy, EXPOSED_HEADERS, preflightHeaders } from '../http/cors.js';
import { ifNoneMatchHits } from '../http/etag.js';
import { RateLimiter } from '../http/rate-limit.js';
import { bodyFor, byteLengthOf, bytesOf, type Body } from '../http/writable-body.js';
import { DEFAULT_HTTP, VOLATILE_ROUTES, type HttpOptions } from './http-options.js';
import { RawJson, toJsonText } from '../interfaces/json-chunks.js';
import { Metrics } from './metrics.js';
import { DEFAULT_BRANDING, registerOpenMusic, type Branding } from './openmusic/routes.js';
import { Query } from './query.js';
import { SERVICE_VERSION } from './service-info.js';
import { registerServerRoutes, type HandlerState } from './server-routes.js';
import { registerServiceRoutes } from './service-routes.js';
import { JSON_TYPE, TaggedBody, TextBody } from './text-body.js';
import { registerV1 } from './v1/routes.js';

export interface HandlerOptions {
  readonly v1Prefix?: string;
  readonly openMusicPrefix?: string;
  /** The OpenMusic info endpoint's branding. */
  readonly branding?: Branding;
  /** One JSON line per request on this stream. */
  readonly log?: NodeJS.WritableStream | null;
  readonly http?: Partial<HttpOptions>;
  /** Labels this process's metrics when it is one of several workers. */
  readonly worker?: string;
}

/** Everything a request needs that is settled when the listener is built. */
interface Setup {
  readonly http: HttpOptions;
  readonly state: HandlerState;
  readonly router: Router<Handler>;
  readonly openMusicPrefix: string;
  readonly limiter: RateLimiter | null;
  readonly cors: CorsPolicy;
  readonly perBuild: BuildScoped;
  readonly log: NodeJS.WritableStream | null;
  readonly explorer: Explorer;
}

/** One request and what is decided about its response as it goes. */
interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly started: number;
  /** RawJson.made when the request began: a higher count after the handler means stored views to splice. */
  readonly rawBefore: number;
  readonly requestId: string;
  /** The snapshot in service when the request began, held until its response is written. */
  readonly lease: Lease;
  readonly catalog: Catalog;
  readonly url: string;
  readonly pathname: string;
  /** Where the query string starts in `url`, or -1. */
  readonly queryAt: number;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly vary: string[];
  readonly allowOrigin: string | null;
  style: ErrorStyle;
  route: string;
  code: string | undefined;
  encoding: Encoding | null;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Builds the request listener: routing, the snapshot lease, conditional requests, compression,
 * CORS, the rate limit, errors (through errorResponse, the one place that shapes them), metrics
 * and the request log. Everything that does not depend on the request is decided here, once.
 */
export function createHandler(
  source: Catalog | CatalogHolder,
  options: HandlerOptions = {},
  state: HandlerState = {
    holder: source instanceof CatalogHolder ? source : new CatalogHolder(source),
    metrics: new Metrics(),
    draining: false,
    reloader: null,
  },
): (req: IncomingMessage, res: ServerResponse) => void {
  const http: HttpOptions = { ...DEFAULT_HTTP, ...options.http };
  const v1Prefix = options.v1Prefix ?? '/v1';
  const openMusicPrefix = options.openMusicPrefix ?? '/openmusic';
  const branding = options.branding ?? DEFAULT_BRANDING;
  const limiter = http.rateLimit ? new RateLimiter(http.rateLimit, http.rateLimitBurst ?? undefined) : null;
  const router = new Router<Handler>();
  const explorer = new Explorer(router, { v1Prefix, openMusicPrefix, cacheControl: http.cacheControl });
  explorer.register();
  registerV1(router, v1Prefix);
  registerOpenMusic(router, openMusicPrefix, branding);
  registerServiceRoutes(router, v1Prefix, openMusicPrefix);
  registerServerRoutes(router, state, limiter, options.worker);
  const configTag = createHash('sha256')
    .update(JSON.stringify([SERVICE_VERSION, v1Prefix, openMusicPrefix, branding]))
    .digest('hex')
    .slice(0, 8);
  const setup: Setup = {
    http,
    state,
    router,
    openMusicPrefix,
    limiter,
    cors: new CorsPolicy(http.corsOrigins),
    perBuild: new BuildScoped(configTag),
    log: options.log ?? null,
    explorer,
  };
  return (req, res) => handle(setup, req, res);
}

/**
 * The phases of one request: begin, route, preflight, method, conditional, handler, then complete
 * or fail. The snapshot lease ends once the response is handed to the socket: every body is
 * copied out of the snapshot by then (a string, a Buffer of its own, or, for the fast core, laid
 * into its send buffer inside `res.end`), so nothing written still points into a snapshot that a
 * swap may close.
 */
function handle(setup: Setup, req: IncomingMessage, res: ServerResponse): void {
  const ex = begin(setup, req, res);
  let pending: Promise<unknown> | null = null;
  try {
    const match = route(setup, ex);
    if (answerPreflight(setup, ex)) return;
    if (ex.method !== 'GET' && ex.method !== 'HEAD') throw methodNotAllowed();
    if (!match) throw notFound('No such endpoint');
    if (answerNotModified(setup, ex, match)) return;
    const result = match.handler({
      cat: ex.catalog,
      params: match.params,
      query: new Query(ex.queryAt < 0 ? '' : ex.url.slice(ex.queryAt + 1)),
      requestId: ex.requestId,
    });
    if (result instanceof Promise) {
      pending = result.then(
        (value) => complete(setup, ex, value),
        (err) => fail(setup, ex, err),
      );
      pending.finally(() => setup.state.holder.release(ex.lease)).catch(() => undefined);
      return;
    }
    complete(setup, ex, result);
  } catch (err) {
    fail(setup, ex, err);
  } finally {
    if (!pending) setup.state.holder.release(ex.lease);
  }
}

/** The request id, the snapshot lease (released by handle), the URL's parts, the CORS headers. */
function begin({ state, openMusicPrefix, cors }: Setup, req: IncomingMessage, res: ServerResponse): Exchange {
  const started = performance.now();
  const incoming = req.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  const lease = state.holder.acquire();
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
  const headers: Record<string, string> = { 'x-request-id': requestId };
  const allowOrigin = cors.allowOrigin(req.headers.origin);
  if (allowOrigin) {
    headers['access-control-allow-origin'] = allowOrigin;
    headers['access-control-expose-headers'] = EXPOSED_HEADERS;
  }
  return {
    req,
    res,
    started,
    rawBefore: RawJson.made,
    requestId,
    lease,
    catalog: lease.catalog,
    url,
    pathname,
    queryAt,
    method: req.method ?? 'GET',
    headers,
    vary: cors.varies ? ['Origin'] : [],
    allowOrigin,
    style: pathname === openMusicPrefix || pathname.startsWith(`${openMusicPrefix}/`) ? 'openmusic' : 'v1',
    route: 'unmatched',
    code: undefined,
    encoding: null,
  };
}

/**
 * The route (which also sets the error style and the metrics label), after the URL length and the
 * rate limit. `/` alone is negotiated: a browser asking for HTML gets the explorer's home page,
 * everyone else the service info as ever; no other route looks at Accept.
 */
function route({ http, router, limiter, explorer }: Setup, ex: Exchange): Match<Handler> | null {
  if (ex.url.length > http.maxUrlLength) throw uriTooLong(http.maxUrlLength);
  let match = router.match(ex.pathname);
  if (match !== null && match.pattern === '/') {
    ex.vary.push('Accept');
    if (prefersHtml(ex.req.headers.accept)) match = explorer.home;
  }
  if (match) {
    ex.style = match.style;
    ex.route = match.pattern;
  }
  // Health checks and scrapes are never limited.
  if (limiter && !VOLATILE_ROUTES.has(ex.route)) {
    const client =
      (http.trustProxy &&
        String(ex.req.headers['x-forwarded-for'] ?? '')
          .split(',')[0]
          .trim()) ||
      ex.req.socket.remoteAddress ||
      'unknown';
    const wait = limiter.take(client);
    if (wait > 0) throw rateLimited(wait);
  }
  return match;
}

/** A CORS preflight from an allowed origin: answered here with 204. */
function answerPreflight(setup: Setup, ex: Exchange): boolean {
  if (ex.method !== 'OPTIONS' || !ex.allowOrigin || !ex.req.headers['access-control-request-method']) return false;
  const reqHeaders = ex.req.headers['access-control-request-headers'];
  ex.res.writeHead(204, {
    ...preflightHeaders(ex.allowOrigin, typeof reqHeaders === 'string' ? reqHeaders : undefined),
    'x-request-id': ex.requestId,
    ...(ex.vary.length ? { vary: ex.vary.join(', ') } : {}),
  });
  ex.res.end();
  finish(setup, ex, 204, 0);
  return true;
}

/** Content negotiation and caching headers; a matching If-None-Match is answered here with 304. */
function answerNotModified(setup: Setup, ex: Exchange, match: Match<Handler>): boolean {
  const { http, state, perBuild } = setup;
  const { headers, vary } = ex;
  const cacheable = !VOLATILE_ROUTES.has(match.pattern);
  if (http.compression) {
    ex.encoding = negotiateEncoding(ex.req.headers['accept-encoding'] as string | undefined);
    if (cacheable) vary.push('Accept-Encoding');
  }
  if (!cacheable) {
    headers['cache-control'] = 'no-store';
    return false;
  }
  const tags = perBuild.tags(ex.catalog.buildId);
  const etag = ex.encoding ? tags[ex.encoding] : tags.identity;
  headers.etag = etag;
  headers['cache-control'] = http.cacheControl;
  if (vary.length) headers.vary = vary.join(', ');
  // The identity tag too: a body too small to compress goes out under it whatever was accepted.
  if (!ifNoneMatchHits(ex.req.headers['if-none-match'], [etag, tags.identity])) return false;
  if (state.draining) headers.connection = 'close';
  ex.res.writeHead(304, headers);
  ex.res.end();
  finish(setup, ex, 304, 0);
  return true;
}

function complete(setup: Setup, ex: Exchange, result: unknown): void {
  if (result instanceof TextBody) {
    if (result instanceof TaggedBody) sendTagged(setup, ex, result);
    else send(setup, ex, result.status, result.text, result.contentType);
  }
  // Stored views in the result are spliced in as bytes (written where the response is laid out);
  // otherwise the native serialiser.
  else send(setup, ex, 200, RawJson.made !== ex.rawBefore ? toJsonText(result) : JSON.stringify(result), JSON_TYPE);
}

function fail(setup: Setup, ex: Exchange, err: unknown): void {
  const response = errorResponse(err, ex.style, ex.requestId);
  Object.assign(ex.headers, response.headers);
  ex.code = response.code;
  if (response.internal !== undefined) {
    process.stderr.write(
      `${JSON.stringify({ level: 'error', requestId: ex.requestId, path: ex.pathname, error: String((response.internal as Error)?.stack ?? response.internal) })}\n`,
    );
  }
  ex.encoding = null;
  // A page's error is a page, with the same status and message.
  if (setup.explorer.isPage(ex.route)) {
    Object.assign(ex.headers, PAGE_HEADERS);
    send(setup, ex, response.status, setup.explorer.errorPage(ex.catalog, response, ex.requestId), HTML_TYPE);
  } else send(setup, ex, response.status, JSON.stringify(response.body), JSON_TYPE);
}

/**
 * A 200 with its own validator (the explorer's pages and assets): its ETag per encoding, its
 * Cache-Control and headers, 304 on a matching If-None-Match, and a body compressed ahead of
 * time when it has one.
 */
function sendTagged(setup: Setup, ex: Exchange, body: TaggedBody): void {
  const { headers } = ex;
  const size = Buffer.byteLength(body.text);
  const encoding = ex.encoding && (body.encoded?.[ex.encoding] || size >= COMPRESS_MIN_BYTES) ? ex.encoding : null;
  Object.assign(headers, body.headers);
  headers.etag = body.tagFor(encoding);
  headers['cache-control'] = body.cacheControl;
  if (ifNoneMatchHits(ex.req.headers['if-none-match'], [headers.etag, body.etag])) {
    if (setup.state.draining) headers.connection = 'close';
    ex.res.writeHead(304, headers);
    ex.res.end();
    finish(setup, ex, 304, 0);
    return;
  }
  let payload: string | Buffer = body.text;
  if (encoding) {
    payload = body.encoded?.[encoding] ?? compress(Buffer.from(body.text), encoding);
    headers['content-encoding'] = encoding;
  }
  write(setup, ex, 200, payload, typeof payload === 'string' ? size : payload.length, body.contentType);
}

/** Writes the response: errors uncached, large bodies compressed (kept per snapshot when larger still). */
function send(setup: Setup, ex: Exchange, status: number, body: Body, contentType: string): void {
  const { headers, vary, encoding } = ex;
  if (status !== 200) {
    delete headers.etag;
    headers['cache-control'] = 'no-store';
    if (vary.length) headers.vary = vary.join(', ');
  }
  let payload: Body = body;
  let bytes = byteLengthOf(body);
  if (encoding && status === 200 && bytes >= COMPRESS_MIN_BYTES) {
    const compressedCache = setup.perBuild.compressed(ex.catalog.buildId);
    const key = `${encoding} ${ex.url}`;
    let packed = bytes >= compressedCache.minBytes ? compressedCache.get(key) : undefined;
    if (!packed) {
      packed = compress(bytesOf(body), encoding);
      if (bytes >= compressedCache.minBytes) compressedCache.set(key, packed);
    }
    payload = packed;
    bytes = packed.length;
    headers['content-encoding'] = encoding;
  } else if (headers.etag && encoding) {
    // Too small to compress: the same bytes as the identity response, so the same ETag.
    headers.etag = setup.perBuild.tags(ex.catalog.buildId).identity;
  }
  write(setup, ex, status, payload, bytes, contentType);
}

function write(setup: Setup, ex: Exchange, status: number, payload: Body, bytes: number, contentType: string): void {
  const { headers } = ex;
  headers['content-type'] = contentType;
  headers['content-length'] = String(bytes);
  if (setup.state.draining) headers.connection = 'close';
  // node:http's bytes are made before its head is set: a body that fails as it is written (a
  // page failing its CRC under pread) then fails the request with a 500 like any other error. The
  // fast core writes one in `end`, where a failure leaves nothing queued and the head replaceable.
  const body = ex.method === 'HEAD' ? undefined : bodyFor(ex.res, payload);
  ex.res.writeHead(status, headers);
  ex.res.end(body);
  finish(setup, ex, status, bytes);
}

/** Metrics and the request log line. */
function finish({ state, log }: Setup, ex: Exchange, status: number, sent: number): void {
  state.responded?.(ex.req);
  const ms = performance.now() - ex.started;
  state.metrics.observe(ex.route, status, ms / 1000, sent);
  if (log) {
    log.write(
      `${JSON.stringify({ time: new Date().toISOString(), method: ex.method, path: ex.pathname, status, bytes: sent, ms: Math.round(ms * 1000) / 1000, requestId: ex.requestId, buildId: ex.catalog.buildId, ...(ex.code ? { code: ex.code } : {}) })}\n`,
    );
  }
}
