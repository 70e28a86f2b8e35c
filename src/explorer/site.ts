import type { RequestContext } from '../serve/context.js';
import type { Html } from './html.js';
import type { V1Client } from './v1-client.js';

/** What every page is written with: the API in process, the prefixes, the assets' URLs. */
export interface Site {
  readonly v1: V1Client;
  readonly v1Prefix: string;
  readonly openMusicPrefix: string;
  /** The URL of an asset by its file name (`app.js`), under the assets' content hash. */
  readonly asset: (name: string) => string;
}

/** What a page writes inside the frame that layout.ts puts around every page. */
export interface PageParts {
  readonly title: string;
  readonly main: Html;
  /** The search box's value (the results page). */
  readonly term?: string;
}

/** A page, from the request and the site. */
export type PageRender = (ctx: RequestContext, site: Site) => PageParts;
