import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { methodNotAllowed, Router, type Match } from './router.js';
import type { Exchange, Setup } from './exchange.js';
import type { HtmlSiteFactory } from './html-site.js';
import { complete, fail, finish } from './response-writer.js';
import { notFound, rateLimited, uriTooLong } from './api-error.js';
import type { Catalog } from '../catalog/catalog.js';
import { readWithoutWaiting } from '../index-format/shards/cold-reads.js';
import { CatalogHolder } from './catalog-holder.js';
import type { Handler } from './context.js';
import { prefersHtml } from '../http/accept.js';
import { BuildScoped } from '../http/build-scoped.js';
import { negotiateEncoding } from '../http/compression.js';
import { CorsPolicy, EXPOSED_HEADERS, preflightHeaders } from '../http/cors.js';
import { ifNoneMatchHits } from '../http/etag.js';
import { RateLimiter } from '../http/rate-limit.js';
import { DEFAULT_HTTP, VOLATILE_ROUTES, type HttpOptions } from './http-options.js';
import { RawJson } from '../interfaces/json-chunks.js';
import { Metrics } from './metrics.js';
import { DEFAULT_BRANDING, registerOpenMusic, type Branding } from './openmusic/routes.js';
import { Query } from './query.js';
import { SERVICE_VERSION } from '../interfaces/service-info.js';
import { registerServerRoutes, type HandlerState } from './server-routes.js';
import { registerServiceRoutes } from './service-routes.js';
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
  /** HTML pages to mount (the explorer); without one the server answers JSON alone. */
  readonly site?: HtmlSiteFactory;
}

/** A client-sent X-Request-Id kept as it is; any other is replaced by a fresh one. */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

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
  const site = options.site?.({ router, v1Prefix, openMusicPrefix, cacheControl: http.cacheControl }) ?? null;
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
    site,
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
    // A snapshot larger than memory: the handler runs again, later, when it would have waited
    // for the disk (cold-reads.ts); each run gets its own Query (it collects the problems found)
    // and stored views are counted from the run that answers.
    const search = ex.queryAt < 0 ? '' : ex.url.slice(ex.queryAt + 1);
    const result = readWithoutWaiting(() => {
      ex.rawBefore = RawJson.made;
      return match.handler({ cat: ex.catalog, params: match.params, query: new Query(search), requestId: ex.requestId });
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
 * rate limit. `/` alone is negotiated when a site is mounted: a browser asking for HTML gets its home page,
 * everyone else the service info as ever; no other route looks at Accept.
 */
function route({ http, router, limiter, site }: Setup, ex: Exchange): Match<Handler> | null {
  if (ex.url.length > http.maxUrlLength) throw uriTooLong(http.maxUrlLength);
  let match = router.match(ex.pathname);
  if (site !== null && match !== null && match.pattern === '/') {
    ex.vary.push('Accept');
    if (prefersHtml(ex.req.headers.accept)) match = site.home;
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
