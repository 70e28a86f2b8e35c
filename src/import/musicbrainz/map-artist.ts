/** A MusicBrainz artist (an artist dump line or a WS/2 artist) as a staged artist: MBID, name and genres. */
import type { StagedArtist } from '../stage/staged.js';
import { readGenres } from './credits.js';
import { cleanText, optMbid, optString, type Json, type ReadContext } from './fields.js';

/** The artist `obj`, or null when it cannot be one (no MBID, no name): reported as skipped. */
export function mapArtist(ctx: ReadContext, obj: Json): StagedArtist | null {
  const id = optMbid(ctx, obj, 'id', '');
  if (!id) {
    ctx.report.skip(ctx.where, 'artist', id === null ? `id ${JSON.stringify(obj.id)} is not an MBID` : 'has no id');
    return null;
  }
  const name = cleanText(ctx, optString(ctx, obj, 'name', ''), 'name');
  if (!name) {
    ctx.report.skip(ctx.where, `artist ${id}`, 'has no name');
    return null;
  }
  const genres = readGenres(ctx, obj, '');
  return { id, name, ...(genres.length > 0 ? { genres } : {}) };
}
