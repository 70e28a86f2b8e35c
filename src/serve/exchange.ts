import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Catalog } from '../catalog/catalog.js';
import type { BuildScoped } from '../http/build-scoped.js';
import type { Encoding } from '../http/compression.js';
import type { CorsPolicy } from '../http/cors.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { Lease } from './catalog-holder.js';
import type { Handler } from './context.js';
import type { ErrorStyle } from './error-response.js';
import type { HtmlSite } from './html-site.js';
import type { HttpOptions } from './http-options.js';
import type { Router } from './router.js';
import type { HandlerState } from './server-routes.js';

/*
 * What the request listener (request-handler.ts) and the response writer (response-writer.ts)
 * share: the setup decided once when the listener is built, and one request's exchange.
 */

/** Everything a request needs that is settled when the listener is built. */
export interface Setup {
  readonly http: HttpOptions;
  readonly state: HandlerState;
  readonly router: Router<Handler>;
  readonly openMusicPrefix: string;
  readonly limiter: RateLimiter | null;
  readonly cors: CorsPolicy;
  readonly perBuild: BuildScoped;
  readonly log: NodeJS.WritableStream | null;
  /** The HTML pages mounted on the server (the explorer), if any. */
  readonly site: HtmlSite | null;
}

/** One request and what is decided about its response as it goes. */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly started: number;
  /** RawJson.made when the handler's answering run began: a higher count after it means stored views to splice. */
  rawBefore: number;
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
