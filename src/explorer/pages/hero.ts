import { html, type Fragment, type Html } from '../html.js';
import { artwork, pageHref } from '../items.js';
import type { Resource } from '../v1-client.js';

const KIND: Record<Resource['type'], string> = { song: 'Song', album: 'Album', artist: 'Artist', playlist: 'Playlist' };

/** The head of a resource's page: its artwork, what it is, its name and who made it. */
export function hero(resource: Resource, byline: Fragment): Html {
  return html`<header class="hero">${artwork(resource.attributes.artworkUrl, 200, 'cover')}<div><p class="kind">${KIND[resource.type]}</p><h1>${resource.attributes.name ?? resource.id}</h1>${byline ? html`<p class="by">${byline}</p>` : ''}</div></header>`;
}

/** Links to the related resources' pages, comma-separated. */
export function links(resources: readonly Resource[] | undefined): Html | null {
  if (!resources || resources.length === 0) return null;
  return html`${resources.map((r, i) => html`${i > 0 ? ', ' : ''}<a href="${pageHref(r.type, r.id)}">${r.attributes.name ?? r.id}</a>`)}`;
}
