import { createHash } from 'node:crypto';
import type { Catalog } from '../catalog/catalog.js';
import { notFound } from '../serve/api-error.js';
import type { Handler } from '../serve/context.js';
import type { ErrorResponse } from '../serve/error-response.js';
import type { HtmlPage, HtmlSite, HtmlSiteFactory } from '../serve/html-site.js';
import type { Match, Router } from '../serve/router.js';
import { SERVICE_VERSION } from '../interfaces/service-info.js';
import { TaggedBody } from '../serve/text-body.js';
import { ExplorerAssets } from './assets.js';
import { HTML_TYPE, PAGE_HEADERS } from './headers.js';
import { layout } from './layout.js';
import { albumPage } from './pages/album.js';
import { artistPage } from './pages/artist.js';
import { errorParts } from './pages/error.js';
import { homePage } from './pages/home.js';
import { matchPage } from './pages/match.js';
import { playlistPage } from './pages/playlist.js';
import { searchPage } from './pages/search.js';
import { songPage } from './pages/song.js';
import type { PageRender, Site } from './site.js';
import { V1Client } from './v1-client.js';

export interface ExplorerOptions {
  readonly v1Prefix: string;
  readonly openMusicPrefix: string;
  /** Cache-Control of the pages: the server's, as on its JSON. */
  readonly cacheControl: string;
  /** Where the assets are read from (tests); the package's web/explorer/ by default. */
  readonly assetsDir?: string;
}

/** The page routes (and `/` for a browser, which the request handler hands over by Accept). */
const PAGES: Readonly<Record<string, PageRender>> = {
  '/search': searchPage,
  '/match': matchPage,
  '/song/:id': songPage,
  '/album/:id': albumPage,
  '/artist/:id': artistPage,
  '/playlist/:id': playlistPage,
};

/**
 * The catalog explorer: HTML pages over interface 1 called in process, and their static assets.
 * Its routes go on the server's router like any other; `home` is the `/` a browser gets.
 * A page is tagged by the snapshot and the explorer (its assets, prefixes, server version), so
 * it answers 304 until either changes; an asset is tagged by its bytes.
 */
export class Explorer implements HtmlSite {
  readonly home: Match<Handler>;
  private readonly assets: ExplorerAssets;
  private readonly site: Site;
  private readonly tag: string;

  constructor(
    private readonly router: Router<Handler>,
    private readonly options: ExplorerOptions,
  ) {
    this.assets = new ExplorerAssets(options.assetsDir);
    this.site = {
      v1: new V1Client(router, options.v1Prefix),
      v1Prefix: options.v1Prefix,
      openMusicPrefix: options.openMusicPrefix,
      asset: (name) => this.assets.url(name),
    };
    this.tag = createHash('sha256')
      .update(JSON.stringify([SERVICE_VERSION, options.v1Prefix, options.openMusicPrefix, this.assets.version]))
      .digest('hex')
      .slice(0, 8);
    this.home = { pattern: '/', handler: this.page(homePage), params: {}, style: 'v1' };
  }

  /** Adds the page and asset routes; added before the API's, so an API route always wins a clash. */
  register(): void {
    for (const [pattern, render] of Object.entries(PAGES)) this.router.add(pattern, 'v1', this.page(render));
    this.router.add('/assets/:version/:name', 'v1', ({ params }) => {
      const asset = this.assets.get(params.version, params.name);
      if (!asset) throw notFound('No such asset');
      return asset;
    });
  }

  /** Whether a route is one of the pages, whose errors a person reads as a page. */
  isPage(pattern: string): boolean {
    return Object.hasOwn(PAGES, pattern);
  }

  /** A page route's error as HTML (its status and message decided by errorResponse). */
  errorPage(cat: Catalog, error: ErrorResponse, requestId: string): HtmlPage {
    return { text: layout(this.site, cat, errorParts(error, requestId)), contentType: HTML_TYPE, headers: PAGE_HEADERS };
  }

  private page(render: PageRender): Handler {
    return (ctx) =>
      new TaggedBody(
        layout(this.site, ctx.cat, render(ctx, this.site)),
        HTML_TYPE,
        `"${ctx.cat.buildId}-page-${this.tag}"`,
        this.options.cacheControl,
        PAGE_HEADERS,
      );
  }
}

/** The explorer as the server mounts it (`startServer({ site: explorerSite })`): its routes added, then itself. */
export const explorerSite: HtmlSiteFactory = ({ router, v1Prefix, openMusicPrefix, cacheControl }) => {
  const explorer = new Explorer(router, { v1Prefix, openMusicPrefix, cacheControl });
  explorer.register();
  return explorer;
};
