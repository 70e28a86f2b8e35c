import { errorResponse } from './error-response.js';
import { compress, COMPRESS_MIN_BYTES } from '../http/compression.js';
import { ifNoneMatchHits } from '../http/etag.js';
import { bodyFor, byteLengthOf, bytesOf, type Body } from '../http/writable-body.js';
import { RawJson, toJsonText } from '../interfaces/json-chunks.js';
import type { Exchange, Setup } from './exchange.js';
import { JSON_TYPE, TaggedBody, TextBody } from './text-body.js';

/*
 * How a response goes out once the handler has answered or failed: errors shaped by
 * errorResponse (a page's error as a page), bodies compressed and tagged, the head and body
 * written, then the metrics and the request log.
 */

export function complete(setup: Setup, ex: Exchange, result: unknown): void {
  if (result instanceof TextBody) {
    if (result instanceof TaggedBody) sendTagged(setup, ex, result);
    else send(setup, ex, result.status, result.text, result.contentType);
  }
  // Stored views in the result are spliced in as bytes (written where the response is laid out);
  // otherwise the native serialiser.
  else send(setup, ex, 200, RawJson.made !== ex.rawBefore ? toJsonText(result) : JSON.stringify(result), JSON_TYPE);
}

export function fail(setup: Setup, ex: Exchange, err: unknown): void {
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
  if (setup.site?.isPage(ex.route)) {
    const page = setup.site.errorPage(ex.catalog, response, ex.requestId);
    Object.assign(ex.headers, page.headers);
    send(setup, ex, response.status, page.text, page.contentType);
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
export function finish({ state, log }: Setup, ex: Exchange, status: number, sent: number): void {
  state.responded?.(ex.req);
  const ms = performance.now() - ex.started;
  state.metrics.observe(ex.route, status, ms / 1000, sent);
  if (log) {
    log.write(
      `${JSON.stringify({ time: new Date().toISOString(), method: ex.method, path: ex.pathname, status, bytes: sent, ms: Math.round(ms * 1000) / 1000, requestId: ex.requestId, buildId: ex.catalog.buildId, ...(ex.code ? { code: ex.code } : {}) })}\n`,
    );
  }
}
