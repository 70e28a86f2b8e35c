/**
 * A MusicBrainz recording (a recording dump line, a WS/2 recording, or a track's `recording` in a
 * release) as a staged song: id = recording MBID, name = recording title, the first valid ISRC,
 * the recording length in ms, the recording's artist credit, its first release date and genres.
 */
import { normalizeIsrc } from '../../raw/codes.js';
import type { StagedSong } from '../stage/staged.js';
import { readCredit, readGenres, type Credit } from './credits.js';
import { at, cleanDate, cleanText, optArray, optCount, optMbid, optString, valueError, type Json, type ReadContext } from './fields.js';

/** What a track on a release adds when its recording lacks it. */
export interface TrackFallback {
  /** The track's own title, for a recording without one. */
  readonly title?: string;
  /** The track's length, for a recording without one. */
  readonly durationMs?: number;
  /** The track's credit, else the release's, for a recording without one. */
  readonly credit?: Credit;
}

/**
 * The song of recording `rec` at path `base` ('' for a top-level recording), or null when it
 * cannot be one (no MBID, no title): reported as skipped.
 */
export function mapRecording(ctx: ReadContext, rec: Json, base: string, fallback: TrackFallback = {}): StagedSong | null {
  const id = optMbid(ctx, rec, 'id', base);
  const item = base === '' ? 'recording' : `recording at ${ctx.prefix}${base}`;
  if (!id) {
    ctx.report.skip(ctx.where, item, id === null ? `id ${JSON.stringify(rec.id)} is not an MBID` : 'has no id');
    return null;
  }
  const name = cleanText(ctx, optString(ctx, rec, 'title', base), at(base, 'title')) ?? fallback.title;
  if (!name) {
    ctx.report.skip(ctx.where, `recording ${id}`, 'has no title');
    return null;
  }
  const isrc = firstIsrc(ctx, rec, base);
  const durationMs = optCount(ctx, rec, 'length', base) ?? fallback.durationMs;
  const credit = readCredit(ctx, rec, base) ?? fallback.credit;
  const releaseDate = cleanDate(ctx, optString(ctx, rec, 'first-release-date', base), at(base, 'first-release-date'));
  const genres = readGenres(ctx, rec, base);
  return {
    id,
    name,
    ...(isrc ? { isrc } : {}),
    ...(durationMs !== undefined ? { durationMs } : {}),
    ...(genres.length > 0 ? { genres } : {}),
    ...(releaseDate ? { releaseDate } : {}),
    artists: credit?.artists ?? [],
    ...(credit?.artistName ? { artistName: credit.artistName } : {}),
  };
}

/** The first valid ISRC of `isrcs`, normalised; invalid ones are warned about and passed over. */
function firstIsrc(ctx: ReadContext, rec: Json, base: string): string | undefined {
  const codes = optArray(ctx, rec, 'isrcs', base);
  for (let i = 0; i < codes.length; i++) {
    const raw = codes[i];
    if (typeof raw !== 'string') throw valueError(ctx, at(at(base, 'isrcs'), i), 'expected a string');
    const isrc = normalizeIsrc(raw);
    if (isrc) return isrc;
    ctx.report.warn(ctx.where, `${ctx.prefix}${at(at(base, 'isrcs'), i)}: ${JSON.stringify(raw)} is not an ISRC; left out`);
  }
  return undefined;
}
