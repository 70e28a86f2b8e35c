import { code, date, facts, time } from '../facts.js';
import { html } from '../html.js';
import { itemList, jsonLinks } from '../items.js';
import type { PageRender } from '../site.js';
import { segment, type Resource } from '../v1-client.js';
import { hero, links } from './hero.js';

const PLAYLISTS_SHOWN = 10;

/** `/song/{id}`: title, artists, album, ISRC, duration, release date, genres, artwork, ids, the playlists it is on (most popular first), its JSON. */
export const songPage: PageRender = (ctx, site) => {
  const id = segment(ctx.params.id);
  const song = site.v1.get<{ data: Resource }>(ctx, `/song/${id}`, 'include=albums,artists').data;
  const a = song.attributes;
  const ordinal = ctx.cat.resolve('song', song.id);
  const playlists = ordinal >= 0 && ctx.cat.hasRelation('song.playlists') ? ctx.cat.relation('song.playlists').targetsOf(ordinal) : null;
  const onPlaylists = playlists
    ? Array.from(playlists.subarray(0, PLAYLISTS_SHOWN), (p) => site.v1.get<{ data: Resource }>(ctx, `/playlist/${segment(ctx.cat.playlist(p).id)}`).data)
    : [];
  const track = a.trackNumber === undefined ? null : `${a.trackNumber}${a.discNumber === undefined ? '' : ` (disc ${a.discNumber})`}`;
  const main = html`<article class="resource">
${hero(song, a.artistName)}
${facts([
  ['Artists', links(song.relationships?.artists?.data)],
  ['Album', links(song.relationships?.albums?.data) ?? a.albumName],
  ['ISRC', code(a.isrc)],
  ['Duration', time(a.durationMs)],
  ['Release date', date(a.releaseDate)],
  ['Genres', a.genres?.join(', ')],
  ['Track', track],
  ['Catalog id', ordinal < 0 ? null : code(`omm:song:${ctx.cat.song(ordinal).ommId}`)],
  ['Local id', code(song.id)],
])}
${
  playlists === null
    ? ''
    : html`<section aria-labelledby="playlists-h">
<h2 id="playlists-h">On playlists</h2>
${onPlaylists.length > 0 ? itemList(onPlaylists) : html`<p class="empty">On no playlist.</p>`}
${playlists.length > PLAYLISTS_SHOWN ? html`<p class="more">The ${PLAYLISTS_SHOWN} most popular of ${String(playlists.length)}.</p>` : ''}
</section>`
}
${jsonLinks(`${site.v1Prefix}/song/${segment(song.id)}`, `${site.openMusicPrefix}/songs/${segment(song.id)}`)}
</article>`;
  return { title: a.name ?? song.id, main };
};
