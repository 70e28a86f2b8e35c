import { code, date, facts } from '../facts.js';
import { html } from '../html.js';
import { jsonLinks } from '../items.js';
import type { PageRender } from '../site.js';
import { shownOf, trackTable } from '../tracks.js';
import { segment, type Resource } from '../v1-client.js';
import { hero, links } from './hero.js';

const TRACKS_SHOWN = 100;

/** `/album/{id}`: artists, UPC, release date, genres, and its tracks in order with durations. */
export const albumPage: PageRender = (ctx, site) => {
  const id = segment(ctx.params.id);
  const album = site.v1.get<{ data: Resource }>(ctx, `/album/${id}`, `include=tracks,artists&limit%5Balbum%3Atracks%5D=${TRACKS_SHOWN}`).data;
  const a = album.attributes;
  const tracks = album.relationships?.tracks;
  const ordinal = ctx.cat.resolve('album', album.id);
  const v1 = `${site.v1Prefix}/album/${segment(album.id)}`;
  const main = html`<article class="resource">
${hero(album, a.artistName)}
${facts([
  ['Artists', links(album.relationships?.artists?.data) ?? a.artistName],
  ['UPC', code(a.upc)],
  ['Release date', date(a.releaseDate)],
  ['Genres', a.genres?.join(', ')],
  ['Tracks', a.trackCount === undefined ? null : String(a.trackCount)],
  ['Catalog id', ordinal < 0 ? null : code(`omm:album:${ctx.cat.album(ordinal).ommId}`)],
  ['Local id', code(album.id)],
])}
<section aria-labelledby="tracks-h">
<h2 id="tracks-h">Tracks</h2>
${trackTable(tracks?.data ?? [], { caption: `Tracks of ${a.name ?? album.id}, in order`, numbering: 'track' })}
${shownOf(tracks, 'tracks', html`the rest are in <a href="${v1}/rel/tracks?limit=100&amp;offset=${TRACKS_SHOWN}">the JSON</a>`)}
</section>
${jsonLinks(v1, `${site.openMusicPrefix}/albums/${segment(album.id)}`)}
</article>`;
  return { title: a.name ?? album.id, main };
};
