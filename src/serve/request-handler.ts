import cluster from 'node:cluster';
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { methodNotAllowed, Router } from './router.js';
import { notFound, rateLimited, uriTooLong } from './api-error.js';
import { Catalog } from '../catalog/catalog.js';
import { CatalogHolder } from './catalog-holder.js';
import { workerMetrics } from './cluster-metrics.js';
import type { Handler } from './context.js';
import { errorResponse, type ErrorStyle } from './error-response.js';
import { compress, COMPRESS_MIN_BYTES, CompressedCache, negotiateEncoding, type Encoding } from './http/compression.js';
import { CorsPolicy, EXPOSED_HEADERS, preflightHeaders } from './http/cors.js';
import { ifNoneMatchHits } from './http/etag.js';
import { RateLimiter } from './http/rate-limit.js';
import { DEFAULT_HTTP, VOLATILE_ROUTES, type HttpOptions } from './http-options.js';
import { RawJson, toJsonBytes } from '../interfaces/json-chunks.js';
import { Metrics } from './metrics.js';
import { DEFAULT_BRANDING, registerOpenMusic, type Branding } from './openmusic/routes.js';
import { Query } from './query.js';
import { SERVICE_VERSION } from './service-info.js';
import { registerServiceRoutes } from './service-routes.js';
import type { SnapshotReloader } from './snapshot-reloader.js';
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

/** A handler result sent as it is: the metrics text, the draining /readyz. */
export class TextBody {
  constructor(
    readonly text: string,
    readonly contentType: string,
    readonly status = 200,
  ) {}
}

/** What the request listener shares with the server around it. */
export interface HandlerState {
  readonly holder: CatalogHolder;
  readonly metrics: Metrics;
  /** Set once shutdown begins: /readyz answers 503 and every response closes its connection. */
  draining: boolean;
  reloader: SnapshotReloader | null;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Builds the request listener: routing, the snapshot lease, conditional requests, compression,
 * CORS, the rate limit, errors (through errorResponse, the one place that shapes them), metrics
 * and the request log.
 */
export function createHandler(
  source: Catalog | CatalogHolder,
  options: HandlerOptions = {},
  state: HandlerState = { holder: source instanceof CatalogHolder ? source : new CatalogHolder(source), metrics: new Metrics(), draining: false, reloader: null },
): (req: IncomingMessage, res: ServerResponse) => void {
  const http: HttpOptions = { ...DEFAULT_HTTP, ...options.http };
  const { holder, metrics } = state;
  const router = new Router<Handler>();
  const v1Prefix = options.v1Prefix ?? '/v1';
  const openMusicPrefix = options.openMusicPrefix ?? '/openmusic';
  const branding = options.branding ?? DEFAULT_BRANDING;
  registerV1(router, v1Prefix);
  registerOpenMusic(router, openMusicPrefix, branding);
  registerServiceRoutes(router, v1Prefix, openMusicPrefix);
  const limiter = http.rateLimit ? new RateLimiter(http.rateLimit, http.rateLimitBurst ?? undefined) : null;
  router.add('/readyz', 'v1', ({ cat }) => {
    if (state.draining) return new TextBody(JSON.stringify({ status: 'draining', buildId: cat.buildId }), JSON_TYPE, 503);
    return { status: 'ready', buildId: cat.buildId };
  });
  const METRICS_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
  const renderMetrics = () => metrics.render({ holder, swaps: state.reloader?.counts, rateLimited: limiter ? () => limiter.limited : undefined, worker: options.worker });
  // One of several workers: a scrape gets every worker's series, merged by the primary.
  const clusterMetrics = options.worker !== undefined && cluster.isWorker ? workerMetrics(renderMetrics) : null;
  router.add('/metrics', 'v1', () => (clusterMetrics ? clusterMetrics().then((text) => new TextBody(text, METRICS_TYPE)) : new TextBody(renderMetrics(), METRICS_TYPE)));
  const log = options.log ?? null;
  const cors = new CorsPolicy(http.corsOrigins);
  // Responses are a function of the snapshot, this configuration and the URL: the ETag says so.
  const configTag = createHash('sha256').update(JSON.stringify([SERVICE_VERSION, v1Prefix, openMusicPrefix, branding])).digest('hex').slice(0, 8);
  // What depends on the snapshot in service: its ETags and the compressed bodies kept for it.
  let perBuild = { buildId: '', tags: { identity: '', br: '', gzip: '' }, compressed: new CompressedCache() };
  const buildState = (buildId: string) => {
    if (buildId !== perBuild.buildId) {
      const tag = `"${buildId}-${configTag}`;
      perBuild = { buildId, tags: { identity: `${tag}"`, br: `${tag}-br"`, gzip: `${tag}-gzip"` }, compressed: new CompressedCache() };
    }
    return perBuild;
  };

  return (req, res) => {
    const started = performance.now();
    const rawBefore = RawJson.made;
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const lease = holder.acquire();
    res.once('close', () => holder.release(lease));
    const catalog = lease.catalog;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    const method = req.method ?? 'GET';
    let style: ErrorStyle = pathname === openMusicPrefix || pathname.startsWith(`${openMusicPrefix}/`) ? 'openmusic' : 'v1';
    let route = 'unmatched';
    let code: string | undefined;
    let encoding: Encoding | null = null;
    const headers: Record<string, string> = { 'x-request-id': requestId };
    const allowOrigin = cors.allowOrigin(req.headers.origin);
    if (allowOrigin) {
      headers['access-control-allow-origin'] = allowOrigin;
      headers['access-control-expose-headers'] = EXPOSED_HEADERS;
    }
    const vary: string[] = cors.varies ? ['Origin'] : [];
    try {
      if (url.length > http.maxUrlLength) throw uriTooLong(http.maxUrlLength);
      const match = router.match(pathname);
      if (match) {
        style = match.style;
        route = match.pattern;
      }
      // Health checks and scrapes are never limited.
      if (limiter && !VOLATILE_ROUTES.has(route)) {
        const client = (http.trustProxy && String(req.headers['x-forwarded-for'] ?? '').split(',')[0].trim()) || req.socket.remoteAddress || 'unknown';
        const wait = limiter.take(client);
        if (wait > 0) throw rateLimited(wait);
      }
      if (method === 'OPTIONS' && allowOrigin && req.headers['access-control-request-method']) {
        const reqHeaders = req.headers['access-control-request-headers'];
        res.writeHead(204, { ...preflightHeaders(allowOrigin, typeof reqHeaders === 'string' ? reqHeaders : undefined), 'x-request-id': requestId, ...(vary.length ? { vary: vary.join(', ') } : {}) });
        res.end();
        finish(204, 0);
        return;
      }
      if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed();
      if (!match) throw notFound('No such endpoint');
      const cacheable = !VOLATILE_ROUTES.has(match.pattern);
      if (http.compression) {
        encoding = negotiateEncoding(req.headers['accept-encoding'] as string | undefined);
        if (cacheable) vary.push('Accept-Encoding');
      }
      if (cacheable) {
        const tags = buildState(catalog.buildId).tags;
        const identityTag = tags.identity;
        const etag = encoding ? tags[encoding] : identityTag;
        headers.etag = etag;
        headers['cache-control'] = http.cacheControl;
        if (vary.length) headers.vary = vary.join(', ');
        // The identity tag too: a body too small to compress goes out under it whatever was accepted.
        if (ifNoneMatchHits(req.headers['if-none-match'], [etag, identityTag])) {
          if (state.draining) headers.connection = 'close';
          res.writeHead(304, headers);
          res.end();
          finish(304, 0);
          return;
        }
      } else headers['cache-control'] = 'no-store';
      const result = match.handler({ cat: catalog, params: match.params, query: new Query(q < 0 ? '' : url.slice(q + 1)), requestId });
      if (result instanceof Promise) {
        result.then(complete, fail);
        return;
      }
      complete(result);
    } catch (err) {
      fail(err);
    }

    function complete(result: unknown): void {
      if (result instanceof TextBody) send(result.status, result.text, result.contentType);
      // Stored views in the result are spliced in as bytes; otherwise the native serialiser.
      else send(200, RawJson.made !== rawBefore ? toJsonBytes(result) : JSON.stringify(result), JSON_TYPE);
    }

    function fail(err: unknown): void {
      const response = errorResponse(err, style, requestId);
      Object.assign(headers, response.headers);
      code = response.code;
      if (response.internal !== undefined) {
        process.stderr.write(`${JSON.stringify({ level: 'error', requestId, path: pathname, error: String((response.internal as Error)?.stack ?? response.internal) })}\n`);
      }
      encoding = null;
      send(response.status, JSON.stringify(response.body), JSON_TYPE);
    }

    function send(status: number, body: string | Buffer, contentType: string): void {
      if (status !== 200) {
        delete headers.etag;
        headers['cache-control'] = 'no-store';
        if (vary.length) headers.vary = vary.join(', ');
      }
      let payload: string | Buffer = body;
      let bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
      if (encoding && status === 200 && bytes >= COMPRESS_MIN_BYTES) {
        const compressedCache = buildState(catalog.buildId).compressed;
        const key = `${encoding} ${url}`;
        let packed = bytes >= compressedCache.minBytes ? compressedCache.get(key) : undefined;
        if (!packed) {
          packed = compress(typeof body === 'string' ? Buffer.from(body) : body, encoding);
          if (bytes >= compressedCache.minBytes) compressedCache.set(key, packed);
        }
        payload = packed;
        bytes = packed.length;
        headers['content-encoding'] = encoding;
      } else if (headers.etag && encoding) {
        // Too small to compress: the same bytes as the identity response, so the same ETag.
        headers.etag = buildState(catalog.buildId).tags.identity;
      }
      headers['content-type'] = contentType;
      headers['content-length'] = String(bytes);
      if (state.draining) headers.connection = 'close';
      res.writeHead(status, headers);
      res.end(method === 'HEAD' ? undefined : payload);
      finish(status, bytes);
    }

    function finish(finalStatus: number, sent: number): void {
      const ms = performance.now() - started;
      metrics.observe(route, finalStatus, ms / 1000, sent);
      if (log) {
        log.write(`${JSON.stringify({ time: new Date().toISOString(), method, path: pathname, status: finalStatus, bytes: sent, ms: Math.round(ms * 1000) / 1000, requestId, buildId: catalog.buildId, ...(code ? { code } : {}) })}\n`);
      }
    }
  };
}
