import { artworkUrl } from './format.js';
import { html, type Html } from './html.js';
import { segment, type Resource } from './v1-client.js';

/** The explorer's page of a resource: `/song/{id}`, `/album/{id}`, `/artist/{id}`, `/playlist/{id}`. */
export const pageHref = (type: Resource['type'], id: string): string => `/${type}/${segment(id)}`;

/** The line under a name: who made it (songs, albums), who curated it (playlists). */
export function byline(resource: Resource): string {
  const a = resource.attributes;
  if (resource.type === 'playlist') return a.curatorName ?? (a.trackCount === undefined ? 'Playlist' : `${a.trackCount} songs`);
  if (resource.type === 'artist') return 'Artist';
  return a.artistName ?? '';
}

/**
 * Artwork from the catalog's own URL, lazy-loaded, or an empty box when the catalog has none.
 * The text beside it names the item, so the image is decorative (`alt=""`).
 */
export function artwork(template: string | undefined, size: number, className: string): Html {
  const src = artworkUrl(template, size * 2);
  if (!src) return html`<span class="art ${className} none" aria-hidden="true"></span>`;
  return html`<img class="art ${className}" src="${src}" alt="" loading="lazy" decoding="async" width="${size}" height="${size}">`;
}

/** One item: artwork, name and byline, as one link to its page (web/explorer/render.js writes the same). */
export function item(resource: Resource, by: (r: Resource) => string = byline): Html {
  return html`<li class="item"><a href="${pageHref(resource.type, resource.id)}">${artwork(resource.attributes.artworkUrl, 48, 'thumb')}<span class="text"><span class="name">${resource.attributes.name ?? resource.id}</span><span class="by">${by(resource)}</span></span></a></li>`;
}

export function itemList(resources: readonly Resource[], by: (r: Resource) => string = byline): Html {
  return html`<ul class="items">${resources.map((r) => item(r, by))}</ul>`;
}

/** Links to a resource's JSON in both interfaces. */
export function jsonLinks(v1: string, openMusic: string): Html {
  return html`<p class="json">JSON: <a href="${v1}">${v1}</a> · <a href="${openMusic}">${openMusic}</a></p>`;
}
