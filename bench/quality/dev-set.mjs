// The seeded dev set of the quality harness: queries with known answers, built from the
// catalog's own songs, albums and artists. Each query: {kind, type, params, expect} where
// `expect` is the target (song: its ISRC or id; album/artist: its id) or null for a negative
// whose right answer is 404.
import { searchText } from '../../dist/index-format/search/search-text.js';
import { matchTitle } from '../../dist/search/match/match-text.js';

export function prng(seed) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
  return { next, int: (n) => Math.floor(next() * n), pick: (a) => a[Math.floor(next() * a.length)], chance: (p) => next() < p };
}

const damaged = (s) => s.includes('\ufffd') || /ýý/.test(s);
const stripAccents = (s) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC');
const stripPunctuation = (s) =>
  s
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export function scriptOf(s) {
  if (/[\u3040-\u30ff]/.test(s)) return 'Japanese';
  if (/[\uac00-\ud7af]/.test(s)) return 'Korean';
  if (/[\u4e00-\u9fff]/.test(s)) return 'Chinese';
  if (/[\u0400-\u04ff]/.test(s)) return 'Cyrillic';
  if (/[\u0590-\u05ff\u0600-\u06ff]/.test(s)) return 'Hebrew/Arabic';
  if (/[\u0e00-\u0e7f]/.test(s)) return 'Thai';
  if (/[\u0900-\u097f]/.test(s)) return 'Devanagari';
  if (/[^\u0000-\u024f\u1e00-\u1eff\s\p{P}\p{S}\p{N}]/u.test(s)) return 'other';
  if (/[\u00c0-\u024f\u1e00-\u1eff]/.test(s)) return 'Latin (accented)';
  return 'Latin (ASCII)';
}

function changeCase(r, s) {
  const mode = r.int(3);
  if (mode === 0) return s.toUpperCase();
  if (mode === 1) return s.toLowerCase();
  return s.replace(/\p{L}+/gu, (w) => w[0].toUpperCase() + w.slice(1).toLowerCase());
}

/** One letter changed, dropped, added or two swapped, in a word of 5+ letters; null when none. */
function typo(r, s) {
  const words = [...s.matchAll(/\p{L}{5,}/gu)];
  if (words.length === 0) return null;
  const w = r.pick(words);
  const chars = [...w[0]];
  const i = 1 + r.int(chars.length - 2);
  const op = r.int(4);
  const letter = 'eaiostnrl'[r.int(9)];
  if (op === 0) chars[i] = chars[i] === letter ? 'u' : letter;
  else if (op === 1) chars.splice(i, 1);
  else if (op === 2) chars.splice(i, 0, letter);
  else [chars[i], chars[i + 1 < chars.length ? i + 1 : i - 1]] = [chars[i + 1 < chars.length ? i + 1 : i - 1], chars[i]];
  return s.slice(0, w.index) + chars.join('') + s.slice(w.index + w[0].length);
}

const VERSIONS = [' - Remastered 2011', ' - Live', ' (Live)', ' - Radio Edit', ' - 2015 Remaster', ' (Acoustic Version)'];

function truncate(s) {
  const words = s.split(' ');
  if (words.length < 3) return null;
  const cut = words.slice(0, Math.ceil(words.length * 0.6));
  // Words that are only punctuation ("Despacito -") are not where a user stops typing.
  while (cut.length > 1 && !/[\p{L}\p{N}]/u.test(cut[cut.length - 1])) cut.pop();
  return cut.join(' ');
}

/**
 * Builds the dev set. `songs`: [{id, name, isrc, artistNames, albumNames, durationMs}],
 * `albums`: [{id, name, artistNames}], `artists`: [{id, name}], all from the catalog.
 */
export function buildDevSet({ songs, albums, artists }, seed, perKind = 150) {
  const r = prng(seed);
  const usable = songs.filter((s) => !damaged(s.name) && s.artistNames.length > 0 && !s.artistNames.some(damaged) && searchText(s.name).length > 0);
  // Titles shared by songs of different artists are ambiguous without an artist: title-only
  // queries use unique titles only.
  const byCore = new Map();
  for (const s of songs) {
    const core = matchTitle(s.name).core;
    byCore.set(core, (byCore.get(core) ?? 0) + 1);
  }
  const titleSet = new Set(songs.map((s) => searchText(s.name)));
  const artistTitles = new Set(songs.flatMap((s) => s.artistNames.map((a) => `${searchText(a)}|${matchTitle(s.name).core}`)));
  // How many songs of an artist share a version-free title, and every title of an artist.
  const versionsOf = new Map();
  const titlesOf = new Map();
  for (const s of songs) {
    for (const a of s.artistNames) {
      const key = `${searchText(a)}|${matchTitle(s.name).core}`;
      versionsOf.set(key, (versionsOf.get(key) ?? 0) + 1);
      const titles = titlesOf.get(searchText(a)) ?? [];
      titles.push(searchText(s.name));
      titlesOf.set(searchText(a), titles);
    }
  }
  // A truncated title that begins another title of the same artist has no single right answer.
  const uniquePrefix = (x, cut) => {
    const prefix = searchText(cut);
    return prefix.length > 0 && x.artistNames.every((a) => titlesOf.get(searchText(a)).filter((t) => t === prefix || t.startsWith(`${prefix} `)).length === 1);
  };
  const queries = [];
  const target = (s) => ({ id: s.id, isrc: s.isrc });
  const add = (kind, s, params) => queries.push({ kind, type: 'song', params, expect: target(s), script: scriptOf(`${s.name} ${s.artistNames.join(' ')}`) });
  const credit = (s) => s.artistNames.join(' & ');
  const sample = (filter) => {
    const pool = usable.filter(filter);
    const out = [];
    for (let i = 0; i < perKind && pool.length > 0; i++) out.push(pool[r.int(pool.length)]);
    return out;
  };
  for (const s of sample(() => true)) add('exact', s, { name: s.name, artist: credit(s) });
  for (const s of sample(() => true)) add('case changed', s, { name: changeCase(r, s.name), artist: changeCase(r, credit(s)) });
  for (const s of sample((x) => stripAccents(x.name + credit(x)) !== x.name + credit(x)))
    add('accents stripped', s, { name: stripAccents(s.name), artist: stripAccents(credit(s)) });
  for (const s of sample((x) => stripPunctuation(x.name) !== x.name)) add('punctuation removed', s, { name: stripPunctuation(s.name), artist: credit(s) });
  // A version note added to or removed from a title the artist has in several versions has no
  // single right answer ("Cold Heart" when the catalog has "Cold Heart - PNAU Remix" and
  // "Cold Heart - Acoustic"): those kinds use titles whose core is the artist's only one.
  const oneVersion = (x) => x.artistNames.every((a) => (versionsOf.get(`${searchText(a)}|${matchTitle(x.name).core}`) ?? 0) === 1);
  for (const s of sample((x) => matchTitle(x.name).core === matchTitle(x.name).full && oneVersion(x)))
    add('version added', s, { name: s.name + r.pick(VERSIONS), artist: credit(s) });
  for (const s of sample((x) => matchTitle(x.name).core !== matchTitle(x.name).full && oneVersion(x))) {
    const m = /^(.*?)(\s+[-–—]\s+.*|\s*[([].*)$/.exec(s.name);
    if (m && m[1].trim()) add('version removed', s, { name: m[1].trim(), artist: credit(s) });
  }
  for (const s of sample((x) => x.artistNames.length === 1))
    add('featuring added', s, { name: `${s.name} (feat. ${r.pick(artists).name})`, artist: credit(s) });
  for (const s of sample((x) => /\p{L}{5,}/u.test(x.name))) add('one-letter typo', s, { name: typo(r, s.name), artist: credit(s) });
  for (const s of sample((x) => byCore.get(matchTitle(x.name).core) === 1)) add('title only', s, { name: s.name });
  for (const s of sample((x) => x.artistNames.length > 1)) add('first artist only', s, { name: s.name, artist: s.artistNames[0] });
  for (const s of sample((x) => x.artistNames.length > 1))
    add('artists reordered', s, { name: s.name, artist: [...s.artistNames].reverse().join(r.chance(0.5) ? ', ' : ' & ') });
  for (const s of sample((x) => x.albumNames.length > 0)) add('album given', s, { name: s.name, artist: credit(s), album: s.albumNames[0] });
  for (const s of sample((x) => x.durationMs > 0)) add('duration given', s, { name: s.name, artist: credit(s), duration: s.durationMs + (r.int(4001) - 2000) });
  for (const s of sample((x) => truncate(x.name) !== null && uniquePrefix(x, truncate(x.name))))
    add('truncated title', s, { name: truncate(s.name), artist: credit(s) });
  for (const s of sample((x) => /\p{L}{5,}/u.test(x.name))) {
    let name = typo(r, changeCase(r, stripAccents(s.name)));
    if (r.chance(0.5)) name = stripPunctuation(name);
    if (r.chance(0.5) && oneVersion(s)) name += r.pick(VERSIONS);
    add('several at once', s, { name, artist: changeCase(r, [...s.artistNames].reverse().join(', ')) });
  }

  // Negatives: the right answer is 404.
  const neg = (kind, params) => queries.push({ kind, type: 'song', params, expect: null, script: scriptOf(params.name) });
  const words = [...new Set(usable.flatMap((s) => s.name.split(/\s+/)).filter((w) => /^\p{L}{4,}$/u.test(w)))];
  for (let i = 0; i < perKind; i++) {
    let name;
    do name = [r.pick(words), r.pick(words), r.pick(words)].join(' ');
    while (titleSet.has(searchText(name)));
    neg('negative: title not in catalog', { name, artist: r.pick(artists).name });
  }
  for (const s of sample(() => true)) {
    let artist;
    do artist = r.pick(artists).name;
    while (artistTitles.has(`${searchText(artist)}|${matchTitle(s.name).core}`) || damaged(artist));
    neg('negative: artist never recorded it', { name: s.name, artist });
  }
  // One word of the title proper swapped (a word swapped inside a version note makes another
  // version of the same title, which "version added" counts as a match).
  const titleProper = (name) => (/^(.*?)(\s+[-–—]\s+.*|\s*[([].*)?$/.exec(name)?.[1] ?? '').trim();
  for (const s of sample((x) => x.name.split(' ').length >= 2 && titleProper(x.name).length > 0)) {
    const proper = titleProper(s.name);
    const parts = proper.split(' ');
    let swapped;
    let guard = 0;
    do {
      const copy = [...parts];
      copy[r.int(copy.length)] = r.pick(words);
      swapped = copy.join(' ') + s.name.slice(proper.length);
    } while ((titleSet.has(searchText(swapped)) || searchText(swapped) === searchText(s.name)) && ++guard < 20);
    neg('negative: one word swapped', { name: swapped, artist: credit(s) });
  }

  // Albums and artists.
  const goodAlbums = albums.filter((a) => !damaged(a.name) && a.artistNames.length > 0 && !a.artistNames.some(damaged));
  for (let i = 0; i < perKind && goodAlbums.length > 0; i++) {
    const a = r.pick(goodAlbums);
    queries.push({
      kind: 'album: exact',
      type: 'album',
      params: { name: a.name, artist: a.artistNames.join(' & ') },
      expect: { id: a.id },
      script: scriptOf(a.name),
    });
    const t = typo(r, a.name);
    if (t)
      queries.push({
        kind: 'album: one-letter typo',
        type: 'album',
        params: { name: t, artist: a.artistNames.join(' & ') },
        expect: { id: a.id },
        script: scriptOf(a.name),
      });
    let other;
    do other = r.pick(artists).name;
    while (a.artistNames.includes(other));
    queries.push({ kind: 'album negative: other artist', type: 'album', params: { name: a.name, artist: other }, expect: null, script: scriptOf(a.name) });
  }
  const goodArtists = artists.filter((a) => !damaged(a.name));
  for (let i = 0; i < perKind && goodArtists.length > 0; i++) {
    const a = r.pick(goodArtists);
    queries.push({ kind: 'artist: exact', type: 'artist', params: { name: a.name }, expect: { id: a.id }, script: scriptOf(a.name) });
    queries.push({ kind: 'artist: case changed', type: 'artist', params: { name: changeCase(r, a.name) }, expect: { id: a.id }, script: scriptOf(a.name) });
  }
  return queries;
}
