import { html } from '../html.js';
import { itemList } from '../items.js';
import type { PageRender } from '../site.js';
import type { ListBody } from '../v1-client.js';

const GROUPS = [
  ['songs', 'Songs'],
  ['albums', 'Albums'],
  ['artists', 'Artists'],
  ['playlists', 'Playlists'],
] as const;

/**
 * `/search?q=`: the results of the API's search, grouped by type. The search box's script
 * answers as you type; this page is where Enter goes without a chosen result, and the search
 * for a browser without script.
 */
export const searchPage: PageRender = (ctx, site) => {
  const term = ctx.query.get('q')?.trim() ?? '';
  if (term.length === 0) {
    return { title: 'Search', main: html`<h1>Search</h1><p>Type a song, album, artist or playlist name in the search box.</p>` };
  }
  const body = site.v1.get<Record<string, ListBody>>(
    ctx,
    '/search',
    new URLSearchParams({ term, types: 'song,album,artist,playlist', limit: '25' }).toString(),
  );
  const found = GROUPS.filter(([key]) => body[key].data.length > 0);
  const main = html`<h1>Results for “${term}”</h1>
${found.length === 0 ? html`<p class="empty">Nothing in the catalog matches “${term}”.</p>` : ''}
${found.map(
  ([key, label]) => html`<section aria-labelledby="${key}-h">
<h2 id="${key}-h">${label} <span class="total">${body[key].meta.total >= 1000 ? '1,000+' : body[key].meta.total.toLocaleString('en-US')}</span></h2>
${itemList(body[key].data)}
</section>`,
)}
<p class="json">JSON: <a href="${site.v1Prefix}/search?${String(new URLSearchParams({ term }))}">${site.v1Prefix}/search?term=${term}</a></p>`;
  return { title: `Search: ${term}`, main, term };
};
