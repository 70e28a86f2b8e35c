import { code, date, facts, time } from '../facts.js';
import { html } from '../html.js';
import { jsonLinks } from '../items.js';
import type { PageRender } from '../site.js';
import { segment, type Resource } from '../v1-client.js';
import { hero, links } from './hero.js';

/** `/song/{id}`: title, artists, album, ISRC, duration, release date, genres, artwork, ids, its JSON. */
export const songPage: PageRender = (ctx, site) => {
  const id = segment(ctx.params.id);
  const song = site.v1.get<{ data: Resource }>(ctx, `/song/${id}`, 'include=albums,artists').data;
  const a = song.attributes;
  const ordinal = ctx.cat.resolve('song', song.id);
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
${jsonLinks(`${site.v1Prefix}/song/${segment(song.id)}`, `${site.openMusicPrefix}/songs/${segment(song.id)}`)}
</article>`;
  return { title: a.name ?? song.id, main };
};
