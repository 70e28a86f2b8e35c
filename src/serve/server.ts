import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { notFound } from './api-error.js';
import { Catalog } from './catalog.js';
import type { Handler } from './context.js';
import { errorResponse, type ErrorStyle } from './error-response.js';
import { Query } from './query.js';
import { methodNotAllowed, Router } from './router.js';
import { registerServiceRoutes } from './service-routes.js';
import { DEFAULT_BRANDING, registerOpenMusic, type Branding } from './openmusic/routes.js';
import { registerV1 } from './v1/routes.js';

export interface ServeOptions {
  /** A snapshot directory or a dist directory (its `current` snapshot). */
  readonly snapshot: string;
  readonly port?: number;
  readonly host?: string;
  readonly v1Prefix?: string;
  readonly openMusicPrefix?: string;
  /** The OpenMusic info endpoint's branding. */
  readonly branding?: Branding;
  /** One JSON line per request on this stream. */
  readonly log?: NodeJS.WritableStream | null;
}

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  readonly catalog: Catalog;
  close(): Promise<void>;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the request listener for a catalog: routing, errors, headers, logging. */
export function createHandler(catalog: Catalog, options: Pick<ServeOptions, 'v1Prefix' | 'openMusicPrefix' | 'branding' | 'log'> = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const router = new Router<Handler>();
  const v1Prefix = options.v1Prefix ?? '/v1';
  const openMusicPrefix = options.openMusicPrefix ?? '/openmusic';
  registerV1(router, v1Prefix);
  registerOpenMusic(router, openMusicPrefix, options.branding ?? DEFAULT_BRANDING);
  registerServiceRoutes(router, v1Prefix, openMusicPrefix);
  const log = options.log ?? null;

  return (req, res) => {
    const started = process.hrtime.bigint();
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    let status = 200;
    let body: string;
    let style: ErrorStyle = 'v1';
    let headers: Record<string, string> = {};
    let code: string | undefined;
    try {
      const match = router.match(pathname);
      if (match) style = match.style;
      else if (pathname === openMusicPrefix || pathname.startsWith(`${openMusicPrefix}/`)) style = 'openmusic';
      if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed();
      if (!match) throw notFound('No such endpoint');
      const result = match.handler({ cat: catalog, params: match.params, query: new Query(q < 0 ? '' : url.slice(q + 1)), requestId });
      body = JSON.stringify(result);
    } catch (err) {
      const response = errorResponse(err, style, requestId);
      status = response.status;
      headers = { ...response.headers };
      code = response.code;
      body = JSON.stringify(response.body);
      if (response.internal !== undefined) {
        process.stderr.write(`${JSON.stringify({ level: 'error', requestId, path: pathname, error: String((response.internal as Error)?.stack ?? response.internal) })}\n`);
      }
    }
    const bytes = Buffer.byteLength(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(bytes),
      'x-request-id': requestId,
      ...headers,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    if (log) {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.write(`${JSON.stringify({ time: new Date().toISOString(), method: req.method, path: pathname, status, bytes, ms: Math.round(ms * 1000) / 1000, requestId, buildId: catalog.buildId, ...(code ? { code } : {}) })}\n`);
    }
  };
}

/** Opens the snapshot and listens. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const catalog = Catalog.open(options.snapshot);
  const server = createServer(createHandler(catalog, options));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8080, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    catalog,
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          catalog.close();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
