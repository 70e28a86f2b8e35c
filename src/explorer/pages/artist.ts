import type { Catalog } from '../../catalog/catalog.js';
import { code, facts } from '../facts.js';
import { html } from '../html.js';
import { itemList, jsonLinks } from '../items.js';
import type { PageRender } from '../site.js';
import { shownOf, trackTable } from '../tracks.js';
import { segment, type Resource } from '../v1-client.js';
import { hero } from './hero.js';

const ALBUMS_SHOWN = 100;
const TOP_SONGS = 10;

/** `/artist/{id}`: its albums (newest first, as the API orders them) and its most popular songs. */
export const artistPage: PageRender = (ctx, site) => {
  const id = segment(ctx.params.id);
  const artist = site.v1.get<{ data: Resource }>(ctx, `/artist/${id}`, `include=albums&limit%5Bartist%3Aalbums%5D=${ALBUMS_SHOWN}`).data;
  const ordinal = ctx.cat.resolve('artist', artist.id);
  const albums = artist.relationships?.albums;
  const top = topSongIds(ctx.cat, ordinal).map((songId) => site.v1.get<{ data: Resource }>(ctx, `/song/${segment(songId)}`).data);
  const v1 = `${site.v1Prefix}/artist/${segment(artist.id)}`;
  const main = html`<article class="resource">
${hero(artist, null)}
${facts([
  ['Albums', String(albums?.meta?.total ?? 0)],
  ['Songs', String(ordinal < 0 ? 0 : ctx.cat.relation('artist.songs').targetsOf(ordinal).length)],
  ['Catalog id', ordinal < 0 ? null : code(`omm:artist:${ctx.cat.artist(ordinal).ommId}`)],
  ['Local id', code(artist.id)],
])}
<section aria-labelledby="top-h">
<h2 id="top-h">Top songs</h2>
${trackTable(top, { caption: `The most popular songs of ${artist.attributes.name ?? artist.id}`, numbering: 'position', albumColumn: true })}
</section>
<section aria-labelledby="albums-h">
<h2 id="albums-h">Albums</h2>
${albums && albums.data.length > 0 ? itemList(albums.data, albumLine) : html`<p class="empty">No albums.</p>`}
${shownOf(albums, 'albums', html`the rest are in <a href="${v1}/rel/albums?limit=100&amp;offset=${ALBUMS_SHOWN}">the JSON</a>`)}
</section>
${jsonLinks(v1, `${site.openMusicPrefix}/artists/${segment(artist.id)}`)}
</article>`;
  return { title: artist.attributes.name ?? artist.id, main };
};

/** Under an album of the artist's own: its year and size. */
const albumLine = (album: Resource): string =>
  [album.attributes.releaseDate?.slice(0, 4), album.attributes.trackCount === undefined ? undefined : `${album.attributes.trackCount} tracks`]
    .filter((part) => part)
    .join(' · ');

/**
 * The local ids of an artist's most popular songs, by the compile's popularity order: one pass
 * keeping the best few, so an artist of a million songs costs a scan, not a sort.
 */
function topSongIds(cat: Catalog, artist: number): string[] {
  if (artist < 0) return [];
  const songs = cat.relation('artist.songs').targetsOf(artist);
  const rank = cat.rank('song', 'popularity');
  const best: number[] = [];
  for (const song of songs) {
    if (best.length === TOP_SONGS && rank[song] >= rank[best[TOP_SONGS - 1]]) continue;
    const at = best.findIndex((other) => rank[song] < rank[other]);
    best.splice(at < 0 ? best.length : at, 0, song);
    if (best.length > TOP_SONGS) best.pop();
  }
  return best.map((song) => cat.song(song).id);
}
