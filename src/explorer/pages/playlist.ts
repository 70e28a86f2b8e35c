import { code, facts } from '../facts.js';
import { html } from '../html.js';
import { jsonLinks, pageHref } from '../items.js';
import type { PageRender } from '../site.js';
import { trackTable } from '../tracks.js';
import { segment, type ListBody, type Resource } from '../v1-client.js';
import { hero } from './hero.js';

const PAGE = 100;

/** `/playlist/{id}?offset=`: curator, description, and its tracks in order, 100 a page. */
export const playlistPage: PageRender = (ctx, site) => {
  const id = segment(ctx.params.id);
  const playlist = site.v1.get<{ data: Resource }>(ctx, `/playlist/${id}`).data;
  const offset = ctx.query.get('offset') ?? '0';
  const tracks = site.v1.get<ListBody>(ctx, `/playlist/${id}/rel/tracks`, new URLSearchParams({ limit: String(PAGE), offset }).toString());
  const a = playlist.attributes;
  const { total } = tracks.meta;
  const from = tracks.meta.offset;
  const here = pageHref('playlist', playlist.id);
  const pager = html`<nav class="pager" aria-label="Pages of tracks">${from > 0 ? html`<a rel="prev" href="${here}?offset=${Math.max(0, from - PAGE)}">Previous ${PAGE}</a>` : ''}${
    total > 0 ? html`<span>${from + 1}–${from + tracks.data.length} of ${total.toLocaleString('en-US')}</span>` : ''
  }${from + PAGE < total ? html`<a rel="next" href="${here}?offset=${from + PAGE}">Next ${PAGE}</a>` : ''}</nav>`;
  const main = html`<article class="resource">
${hero(playlist, a.curatorName)}
${a.description ? html`<p class="description">${a.description}</p>` : ''}
${facts([
  ['Curator', a.curatorName],
  ['Tracks', a.trackCount === undefined ? null : a.trackCount.toLocaleString('en-US')],
  ['Id', code(playlist.id)],
])}
<section aria-labelledby="tracks-h">
<h2 id="tracks-h">Tracks</h2>
${trackTable(tracks.data, { caption: `Tracks of ${a.name ?? playlist.id}, in playlist order`, numbering: 'position', start: from, albumColumn: true })}
${total > PAGE ? pager : ''}
</section>
${jsonLinks(`${site.v1Prefix}/playlist/${segment(playlist.id)}`, `${site.openMusicPrefix}/playlists/${segment(playlist.id)}`)}
</article>`;
  return { title: a.name ?? playlist.id, main };
};
