import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { compileCatalog } from '../../src/compile/index.js';
import type { HttpOptions } from '../../src/serve/http-options.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { explorerSite } from '../../src/explorer/index.js';
import { assertMatchesOpenApi } from './openapi-validator.js';
import { assertMatchesReference, referenceAvailable } from './reference-validator.js';
import { tempDir } from './raw-fixture.js';

export const SAMPLE_RAW = fileURLToPath(new URL('../../data/raw', import.meta.url));

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}

export interface TestServer {
  readonly url: string;
  readonly running: RunningServer;
  get(path: string, init?: { method?: string; headers?: Record<string, string> }): Promise<Reply>;
  close(): Promise<void>;
}

/**
 * Compiles a raw directory into a temporary dist and serves it on a free port. Every GET
 * response is validated against our OpenAPI document, and every /openmusic one also against the
 * reference OpenMusic schemas when ../shared/reference is there (unless `validate: false`).
 */
export async function serveRaw(
  rawDir: string,
  options: { log?: NodeJS.WritableStream; validate?: boolean; http?: Partial<HttpOptions>; explorer?: boolean } = {},
): Promise<TestServer> {
  const out = tempDir('omm-serve-');
  await compileCatalog({ rawDir, outDir: out });
  const running = await startServer({
    snapshot: out,
    port: 0,
    host: '127.0.0.1',
    log: options.log ?? null,
    http: options.http,
    site: options.explorer === false ? undefined : explorerSite,
  });
  return {
    url: running.url,
    running,
    async get(path, init = {}) {
      const res = await request(`${running.url}${path}`, { method: (init.method ?? 'GET') as 'GET', headers: init.headers });
      const text = await res.body.text();
      let body: unknown = undefined;
      try {
        body = text.length > 0 ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      if ((init.method ?? 'GET') === 'GET' && options.validate !== false) {
        assertMatchesOpenApi(path, res.statusCode, body);
        // Interface 2 also against the public OpenMusic document's schemas, when it is beside us.
        if (referenceAvailable && (path === '/openmusic' || path.startsWith('/openmusic/') || path.startsWith('/openmusic?'))) {
          assertMatchesReference(path, res.statusCode, body);
        }
      }
      return { status: res.statusCode, headers: res.headers, body, text };
    },
    close: () => running.close(),
  };
}

/** `a[b]=c` query strings without hand-escaping brackets. */
export const qs = (params: Record<string, string | number>): string =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
