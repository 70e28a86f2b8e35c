import type { Catalog } from '../catalog/catalog.js';
import { SERVICE_NAME, SERVICE_VERSION } from '../interfaces/service-info.js';
import { html } from './html.js';
import type { PageParts, Site } from './site.js';

/**
 * The frame of every page: one stylesheet and one module script from the assets (no inline
 * script or style, as the Content-Security-Policy demands), a skip link, the search box that
 * the script turns into a combobox, the page's `<main>`, and a footer naming the snapshot.
 */
export function layout(site: Site, cat: Catalog, { title, main, term }: PageParts): string {
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="omm-v1" content="${site.v1Prefix}">
<title>${title} · ${SERVICE_NAME}</title>
<link rel="stylesheet" href="${site.asset('explorer.css')}">
<link rel="icon" href="${site.asset('icon.svg')}" type="image/svg+xml">
<script type="module" src="${site.asset('app.js')}"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<a class="brand" href="/">${SERVICE_NAME}</a>
<form class="search" role="search" action="/search" method="get">
<label for="q">Search songs, albums, artists and playlists</label>
<div class="combo">
<input id="q" name="q" type="search" value="${term ?? ''}" autocomplete="off" spellcheck="false" required maxlength="256" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="search-results">
<div id="search-results" class="results" role="listbox" aria-label="Search results" hidden></div>
</div>
<button type="submit">Search</button>
</form>
<nav aria-label="Explorer"><ul><li><a href="/">Snapshot</a></li><li><a href="/match">Match tester</a></li></ul></nav>
</header>
<p id="search-status" class="visually-hidden" role="status" aria-live="polite"></p>
<main id="main" tabindex="-1">
${main}
</main>
<footer class="site"><p>${SERVICE_NAME} ${SERVICE_VERSION} · snapshot <code>${cat.buildId}</code> · <a href="/openapi.json">OpenAPI</a> · <a href="/metrics">Metrics</a> · <a href="${site.v1Prefix}/">${site.v1Prefix}/</a> · <a href="${site.openMusicPrefix}/">${site.openMusicPrefix}/</a></p></footer>
</body>
</html>
`}`;
}
