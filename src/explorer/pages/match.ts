import { ApiError } from '../../serve/api-error.js';
import type { RequestContext } from '../../serve/context.js';
import { code, date, facts, time } from '../facts.js';
import { parseDuration } from '../format.js';
import { html, type Html } from '../html.js';
import { itemList } from '../items.js';
import type { PageRender, Site } from '../site.js';
import type { Resource } from '../v1-client.js';

const FIELDS = [
  ['name', 'Title', ''],
  ['artist', 'Artist', ''],
  ['album', 'Album', ''],
  ['duration', 'Duration', 'm:ss or seconds'],
  ['isrc', 'ISRC', 'looked up by /songs/lookup, beside the match'],
] as const;

type Asked = Record<(typeof FIELDS)[number][0], string>;

/**
 * `/match`: a form that asks interface 1's `/match/song` (and, for an ISRC, `/songs/lookup`)
 * and shows the answer, or the API's own "No match found". The page's script sends the same
 * requests from the browser; without script the form comes back here and this page asks them.
 */
export const matchPage: PageRender = (ctx, site) => {
  const asked = Object.fromEntries(FIELDS.map(([key]) => [key, ctx.query.get(key)?.trim() ?? ''])) as Asked;
  const any = Object.values(asked).some((v) => v.length > 0);
  const main = html`<h1>Match tester</h1>
<p class="lede">The best song for a title, artist, album and duration, as <code>${site.v1Prefix}/match/song</code> answers a client; below its threshold the answer is the API's “No match found”. An ISRC is looked up on its own.</p>
<form id="match-form" class="match" action="/match" method="get">
${FIELDS.map(
  ([key, label, hint]) =>
    html`<div class="field"><label for="m-${key}">${label}</label><input id="m-${key}" name="${key}" value="${asked[key]}" autocomplete="off"${hint ? html` aria-describedby="m-${key}-hint"` : ''}${key === 'duration' ? html` inputmode="decimal"` : ''}>${hint ? html`<small id="m-${key}-hint">${hint}</small>` : ''}</div>`,
)}
<div class="actions"><button type="submit">Match</button></div>
</form>
<section id="match-answer" class="answer" aria-live="polite">${any ? answer(ctx, site, asked) : ''}</section>`;
  return { title: 'Match tester', main };
};

function answer(ctx: RequestContext, site: Site, asked: Asked): Html {
  const parts: Html[] = [];
  if (asked.name) parts.push(matchPart(ctx, site, asked));
  else if (asked.artist || asked.album || asked.duration) parts.push(html`<p class="problem">A match needs a title (the API's <code>name</code>).</p>`);
  if (asked.isrc) parts.push(isrcPart(ctx, site, asked.isrc));
  return html`${parts}`;
}

function matchPart(ctx: RequestContext, site: Site, asked: Asked): Html {
  const duration = parseDuration(asked.duration);
  if (Number.isNaN(duration)) return html`<h2>Match</h2><p class="problem">Duration must be m:ss (3:19) or seconds (199).</p>`;
  const params = new URLSearchParams({ name: asked.name });
  if (asked.artist) params.set('artist', asked.artist);
  if (asked.album) params.set('album', asked.album);
  if (duration !== undefined) params.set('duration', String(duration));
  const url = `${site.v1Prefix}/match/song?${params}`;
  const found = ask(() => site.v1.find<{ data: Resource }>(ctx, '/match/song', params.toString()));
  const json = html`<p class="json">JSON: <a href="${url}">${url}</a></p>`;
  if (typeof found === 'string') return html`<h2>Match</h2><p class="problem">${found}</p>${json}`;
  if ('missing' in found) return html`<h2>Match</h2><p class="no-match">${found.missing}</p>${json}`;
  const song = found.data;
  const a = song.attributes;
  return html`<h2>Match</h2>${itemList([song])}${facts([
    ['Catalog id', code(song.id)],
    ['ISRC', code(a.isrc)],
    ['Album', a.albumName],
    ['Duration', time(a.durationMs)],
    ['Release date', date(a.releaseDate)],
  ])}${json}`;
}

function isrcPart(ctx: RequestContext, site: Site, isrc: string): Html {
  const url = `${site.v1Prefix}/songs/lookup?${new URLSearchParams({ isrc })}`;
  const found = ask(() => site.v1.get<{ data: Resource[] }>(ctx, '/songs/lookup', new URLSearchParams({ isrc }).toString()));
  const json = html`<p class="json">JSON: <a href="${url}">${url}</a></p>`;
  if (typeof found === 'string') return html`<h2>ISRC</h2><p class="problem">${found}</p>${json}`;
  const songs = found.data;
  const heading = html`<h2>ISRC <code>${isrc.toUpperCase()}</code></h2>`;
  if (songs.length === 0) return html`${heading}<p class="no-match">No song has this ISRC.</p>${json}`;
  return html`${heading}<p>${songs.length === 1 ? '1 song has' : `${songs.length} songs have`} this ISRC.</p>${itemList(songs)}${json}`;
}

/** The API's answer, or the message of its 400 (a parameter it refused). */
function ask<T>(call: () => T): T | string {
  try {
    return call();
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) return err.message;
    throw err;
  }
}
