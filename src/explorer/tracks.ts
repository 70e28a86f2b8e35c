import { time } from './facts.js';
import { html, type Html } from './html.js';
import { pageHref } from './items.js';
import type { Relationship, Resource } from './v1-client.js';

export interface TrackTableOptions {
  readonly caption: string;
  /** `track`: the album's disc and track numbers; `position`: 1, 2, 3 from `start`. */
  readonly numbering: 'track' | 'position';
  readonly start?: number;
  readonly albumColumn?: boolean;
}

/** Songs as a table: number, title (a link), artist, album, duration. */
export function trackTable(tracks: readonly Resource[], options: TrackTableOptions): Html {
  if (tracks.length === 0) return html`<p class="empty">No songs.</p>`;
  const discs = new Set(tracks.map((t) => t.attributes.discNumber ?? 1)).size > 1;
  const number = (t: Resource, i: number) => {
    if (options.numbering === 'position') return String((options.start ?? 0) + i + 1);
    const track = t.attributes.trackNumber;
    if (track === undefined) return '';
    return discs ? `${t.attributes.discNumber ?? 1}-${track}` : String(track);
  };
  return html`<table class="tracks">
<caption>${options.caption}</caption>
<thead><tr><th scope="col" class="num">#</th><th scope="col">Title</th><th scope="col">Artist</th>${options.albumColumn ? html`<th scope="col">Album</th>` : ''}<th scope="col" class="num">Duration</th></tr></thead>
<tbody>${tracks.map(
    (t, i) =>
      html`<tr><td class="num">${number(t, i)}</td><td><a href="${pageHref('song', t.id)}">${t.attributes.name ?? t.id}</a></td><td>${t.attributes.artistName ?? ''}</td>${options.albumColumn ? html`<td>${t.attributes.albumName ?? ''}</td>` : ''}<td class="num">${time(t.attributes.durationMs)}</td></tr>`,
  )}</tbody>
</table>`;
}

/** "Showing 100 of 1,477" under a relationship cut at its limit; nothing when it is whole. */
export function shownOf(rel: Relationship | undefined, noun: string, more: Html | string = ''): Html | '' {
  const total = rel?.meta?.total ?? 0;
  const shown = rel?.data.length ?? 0;
  return total > shown ? html`<p class="more">Showing ${shown} of ${total.toLocaleString('en-US')} ${noun}${more ? html`: ${more}` : ''}.</p>` : '';
}
