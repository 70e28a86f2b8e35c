/**
 * MusicBrainz artist credits and genres as staged values. An artist credit is an ordered array of
 * `{name, joinphrase, artist: {id, name}}`: the artists in order become the credited artists, and
 * `name + joinphrase` over all items is the credit as displayed ("A feat. B & C"), with each
 * artist under the name it is credited as, which can differ from the artist's own name.
 */
import type { StagedArtist } from '../stage/staged.js';
import { at, cleanText, isObject, objectAt, optArray, optMbid, optObject, optString, valueError, type Json, type ReadContext } from './fields.js';

export interface Credit {
  /** Each artist once, in credit order, under the artist's own name. */
  readonly artists: readonly StagedArtist[];
  /** The displayed credit; absent when it would be blank. */
  readonly artistName?: string;
}

/** The `artist-credit` of `obj` (at path `base`), or undefined when it is absent or empty. */
export function readCredit(ctx: ReadContext, obj: Json, base: string): Credit | undefined {
  const items = optArray(ctx, obj, 'artist-credit', base);
  if (items.length === 0) return undefined;
  const path = at(base, 'artist-credit');
  const artists: StagedArtist[] = [];
  const seen = new Set<string>();
  let display = '';
  items.forEach((raw, i) => {
    const item = objectAt(ctx, raw, at(path, i));
    const itemPath = at(path, i);
    const artist = optObject(ctx, item, 'artist', itemPath);
    const artistPath = at(itemPath, 'artist');
    const credited = optString(ctx, item, 'name', itemPath);
    const ownName = artist ? optString(ctx, artist, 'name', artistPath) : undefined;
    display += (credited ?? ownName ?? '') + (optString(ctx, item, 'joinphrase', itemPath) ?? '');
    if (!artist) {
      ctx.report.warn(ctx.where, `${ctx.prefix}${artistPath}: no artist; credited by name only`);
      return;
    }
    const id = optMbid(ctx, artist, 'id', artistPath);
    const name = cleanText(ctx, ownName ?? credited, at(artistPath, 'name'));
    if (!id || !name) {
      ctx.report.warn(ctx.where, `${ctx.prefix}${artistPath}: ${!id ? 'no MBID' : 'no name'}; credited by name only`);
      return;
    }
    if (seen.has(id)) return; // an artist credited twice is listed once, at the first place
    seen.add(id);
    artists.push({ id, name });
  });
  return { artists, artistName: cleanText(ctx, display, path) };
}

const MAX_GENRE = 256; // docs/raw-format.md: a list value holds at most 256 characters

/**
 * The `genres` of `obj` as names, by vote count descending then name; names that cannot be raw
 * list values (blank, too long, holding the `|` separator) are left out.
 */
export function readGenres(ctx: ReadContext, obj: Json, base: string): string[] {
  const items = optArray(ctx, obj, 'genres', base);
  const counts = new Map<string, number>();
  items.forEach((raw, i) => {
    const itemPath = at(at(base, 'genres'), i);
    if (!isObject(raw)) throw valueError(ctx, itemPath, 'expected an object');
    const name = optString(ctx, raw, 'name', itemPath)?.trim();
    if (!name || name.length > MAX_GENRE || name.includes('|')) return;
    const count = typeof raw.count === 'number' && Number.isFinite(raw.count) ? raw.count : 0;
    counts.set(name, Math.max(count, counts.get(name) ?? -Infinity));
  });
  return [...counts].sort(([a, ca], [b, cb]) => cb - ca || (a < b ? -1 : a > b ? 1 : 0)).map(([name]) => name);
}
