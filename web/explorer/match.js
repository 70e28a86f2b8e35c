import { duration, el, facts, itemList } from './render.js';

/** "3:19", "1:02:03", "199" -> milliseconds; undefined when empty, NaN when not a duration. */
function parseDuration(text) {
  const value = text.trim();
  if (value.length === 0) return undefined;
  if (!/^\d+(:\d{1,2}){0,2}(\.\d+)?$/.test(value)) return NaN;
  return Math.round(value.split(':').reduce((sum, part) => sum * 60 + Number(part), 0) * 1000);
}

const jsonLink = (url) => el('p', { class: 'json' }, 'JSON: ', el('a', { href: url }, url));

async function getJson(url) {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  return { status: response.status, body: await response.json() };
}

/** The match: the song, or the API's "No match found", or the message of a refused parameter. */
async function matchPart(v1, asked) {
  const heading = el('h2', {}, 'Match');
  const ms = parseDuration(asked.duration);
  if (Number.isNaN(ms)) return [heading, el('p', { class: 'problem' }, 'Duration must be m:ss (3:19) or seconds (199).')];
  const params = new URLSearchParams({ name: asked.name });
  if (asked.artist) params.set('artist', asked.artist);
  if (asked.album) params.set('album', asked.album);
  if (ms !== undefined) params.set('duration', String(ms));
  const url = `${v1}/match/song?${params}`;
  const { status, body } = await getJson(url);
  if (status === 404) return [heading, el('p', { class: 'no-match' }, body.error.message), jsonLink(url)];
  if (status !== 200) return [heading, el('p', { class: 'problem' }, body?.error?.message ?? `The server answered ${status}`), jsonLink(url)];
  const song = body.data;
  const a = song.attributes;
  const time = duration(a.durationMs);
  return [
    heading,
    itemList([song]),
    facts([
      ['Catalog id', el('code', {}, song.id)],
      ['ISRC', a.isrc ? el('code', {}, a.isrc) : null],
      ['Album', a.albumName],
      ['Duration', time],
      ['Release date', a.releaseDate],
    ]),
    jsonLink(url),
  ];
}

/** The songs with an ISRC, by /songs/lookup. */
async function isrcPart(v1, isrc) {
  const url = `${v1}/songs/lookup?${new URLSearchParams({ isrc })}`;
  const { status, body } = await getJson(url);
  if (status !== 200) return [el('h2', {}, 'ISRC'), el('p', { class: 'problem' }, body?.error?.message ?? `The server answered ${status}`), jsonLink(url)];
  const heading = el('h2', {}, 'ISRC ', el('code', {}, isrc.toUpperCase()));
  const songs = body.data;
  if (songs.length === 0) return [heading, el('p', { class: 'no-match' }, 'No song has this ISRC.'), jsonLink(url)];
  return [heading, el('p', {}, songs.length === 1 ? '1 song has this ISRC.' : `${songs.length} songs have this ISRC.`), itemList(songs), jsonLink(url)];
}

/**
 * The match tester: the form's answer is asked from the browser, from the same endpoints the
 * server's /match page asks without script, and the address follows the form so it can be shared.
 */
export function matchTester({ form, answer, v1 }) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const asked = Object.fromEntries([...new FormData(form)].map(([key, value]) => [key, String(value).trim()]));
    const shown = new URLSearchParams(Object.entries(asked).filter(([, value]) => value.length > 0));
    window.history.replaceState(null, '', `${form.getAttribute('action')}${shown.size > 0 ? `?${shown}` : ''}`);
    answer.setAttribute('aria-busy', 'true');
    const parts = [];
    try {
      if (asked.name) parts.push(...(await matchPart(v1, asked)));
      else if (asked.artist || asked.album || asked.duration) parts.push(el('p', { class: 'problem' }, "A match needs a title (the API's name)."));
      if (asked.isrc) parts.push(...(await isrcPart(v1, asked.isrc)));
    } catch {
      parts.push(el('p', { class: 'problem' }, 'The server could not be reached.'));
    }
    answer.replaceChildren(...parts);
    answer.removeAttribute('aria-busy');
  });
}
