import type { Catalog } from '../catalog/catalog.js';
import type { Handler } from './context.js';
import type { ErrorResponse } from './error-response.js';
import type { Match, Router } from './router.js';

/**
 * HTML pages mounted on the server from above it: the explorer (src/explorer/) is one. The
 * server knows them only through this seam, so the pages change without the server changing,
 * and a server started without a site answers JSON alone (`/` is the service info for everyone).
 */
export interface HtmlSite {
  /** What `/` answers a client that prefers HTML. */
  readonly home: Match<Handler>;
  /** Whether a route is one of the site's pages, whose errors a person reads as a page. */
  isPage(pattern: string): boolean;
  /** A page route's error as a page, with the status and message errorResponse decided. */
  errorPage(cat: Catalog, error: ErrorResponse, requestId: string): HtmlPage;
}

export interface HtmlPage {
  readonly text: string;
  readonly contentType: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** What a site is given when the server builds its listener. */
export interface HtmlSiteSetup {
  /** The server's router: the site adds its routes before the API's, so an API route wins a clash. */
  readonly router: Router<Handler>;
  readonly v1Prefix: string;
  readonly openMusicPrefix: string;
  /** The Cache-Control of the server's JSON, for the site's pages. */
  readonly cacheControl: string;
}

/** Builds a site's routes on the server's router; called once per listener. */
export type HtmlSiteFactory = (setup: HtmlSiteSetup) => HtmlSite;
