/**
 * A MusicBrainz release (a release dump line or a WS/2 release) as a staged album with its tracks.
 *
 * Every release is imported whatever its `status` (Official, Promotion, Bootleg, Pseudo-Release,
 * none): the catalog has no use for the distinction, and leaving releases out would lose the
 * recordings only they hold. A release without media imports with no tracks.
 */
import { cleanUpc } from '../../raw/codes.js';
import type { StagedAlbum, StagedSong, StagedTrack } from '../stage/staged.js';
import { readCredit, readGenres, type Credit } from './credits.js';
import { at, cleanDate, cleanText, objectAt, optArray, optCount, optMbid, optObject, optPosition, optString, type Json, type ReadContext } from './fields.js';
import { mapRecording } from './map-recording.js';

/** MusicBrainz's special-purpose label for releases that have none: not a label name to show. */
const NO_LABEL = '[no label]';

/** The album of release `rel`, or null when it cannot be one (no MBID, no title): reported as skipped. */
export function mapRelease(ctx: ReadContext, rel: Json): StagedAlbum | null {
  const id = optMbid(ctx, rel, 'id', '');
  if (!id) {
    ctx.report.skip(ctx.where, 'release', id === null ? `id ${JSON.stringify(rel.id)} is not an MBID` : 'has no id');
    return null;
  }
  const name = cleanText(ctx, optString(ctx, rel, 'title', ''), 'title');
  if (!name) {
    ctx.report.skip(ctx.where, `release ${id}`, 'has no title');
    return null;
  }
  const upc = barcode(ctx, rel);
  const label = firstLabel(ctx, rel);
  const releaseDate = releaseDateOf(ctx, rel);
  const caa = optObject(ctx, rel, 'cover-art-archive', '');
  const artworkUrl = caa?.front === true ? `https://coverartarchive.org/release/${id}/front` : undefined;
  let genres = readGenres(ctx, rel, '');
  if (genres.length === 0) {
    const group = optObject(ctx, rel, 'release-group', '');
    if (group) genres = readGenres(ctx, group, 'release-group');
  }
  const credit = readCredit(ctx, rel, '');
  return {
    id,
    name,
    ...(upc ? { upc } : {}),
    ...(label ? { label } : {}),
    ...(releaseDate ? { releaseDate } : {}),
    ...(artworkUrl ? { artworkUrl } : {}),
    ...(genres.length > 0 ? { genres } : {}),
    artists: credit?.artists ?? [],
    ...(credit?.artistName ? { artistName: credit.artistName } : {}),
    tracks: readTracks(ctx, rel, id, credit),
  };
}

/** `barcode` as a UPC-A or EAN-13, digits as given (leading zeros kept); a bad one is warned about and left out. */
function barcode(ctx: ReadContext, rel: Json): string | undefined {
  const raw = optString(ctx, rel, 'barcode', '')?.trim();
  if (!raw) return undefined; // null: unknown; '': the release has no barcode
  const upc = cleanUpc(raw);
  if (!upc) ctx.report.warn(ctx.where, `${ctx.prefix}barcode: ${JSON.stringify(raw)} is not a UPC-A or EAN-13 with a valid check digit; left out`);
  return upc ?? undefined;
}

/** The name of the first label in `label-info` that has one. */
function firstLabel(ctx: ReadContext, rel: Json): string | undefined {
  const infos = optArray(ctx, rel, 'label-info', '');
  for (let i = 0; i < infos.length; i++) {
    const path = at('label-info', i);
    const label = optObject(ctx, objectAt(ctx, infos[i], path), 'label', path);
    if (!label) continue;
    const name = cleanText(ctx, optString(ctx, label, 'name', at(path, 'label')), at(at(path, 'label'), 'name'));
    if (name && name.toLowerCase() !== NO_LABEL) return name;
  }
  return undefined;
}

/** `date` when it is a real date, else the earliest real date among the release events. */
function releaseDateOf(ctx: ReadContext, rel: Json): string | undefined {
  const date = cleanDate(ctx, optString(ctx, rel, 'date', ''), 'date');
  if (date) return date;
  let earliest: string | undefined;
  optArray(ctx, rel, 'release-events', '').forEach((raw, i) => {
    const path = at('release-events', i);
    const event = cleanDate(ctx, optString(ctx, objectAt(ctx, raw, path), 'date', path), at(path, 'date'));
    // Dates of one shape compare as text; a year alone sorts before the days of that year.
    if (event && (earliest === undefined || event < earliest)) earliest = event;
  });
  return earliest;
}

interface Placed<T> {
  readonly value: T;
  readonly index: number;
  readonly position: number;
}

/** The objects of array `key` with their `position` (else their 1-based index), in position order. */
function byPosition(ctx: ReadContext, obj: Json, key: string, base: string): Placed<Json>[] {
  return optArray(ctx, obj, key, base)
    .map((raw, index) => {
      const path = at(at(base, key), index);
      const value = objectAt(ctx, raw, path);
      return { value, index, position: optPosition(ctx, value, 'position', path) ?? index + 1 };
    })
    .sort((a, b) => a.position - b.position || a.index - b.index);
}

/**
 * Every medium in position order (disc = medium position), every track in position order
 * (track = track position; its `number` can be "A1" and is not used). Only `tracks` are read:
 * a medium's `pregap` (the hidden track before track 1) and `data-tracks` (CD-ROM data) are not
 * songs of the album and are left out.
 */
function readTracks(ctx: ReadContext, rel: Json, releaseId: string, releaseCredit: Credit | undefined): StagedTrack[] {
  const tracks: StagedTrack[] = [];
  const slots = new Set<string>();
  const recordings = new Map<string, string>();
  for (const medium of byPosition(ctx, rel, 'media', '')) {
    const mediumPath = at('media', medium.index);
    for (const track of byPosition(ctx, medium.value, 'tracks', mediumPath)) {
      const path = at(at(mediumPath, 'tracks'), track.index);
      const song = trackSong(ctx, track.value, path, releaseCredit);
      if (!song) continue;
      const place = `disc ${medium.position} track ${track.position}`;
      if (slots.has(place)) {
        ctx.report.skip(ctx.where, `track at ${ctx.prefix}${path}`, `release ${releaseId} already has a ${place}`);
        continue;
      }
      const first = recordings.get(song.id);
      if (first) {
        ctx.report.warn(ctx.where, `${ctx.prefix}${path}: recording ${song.id} repeats on release ${releaseId}; kept at its first place, ${first}`);
        continue;
      }
      slots.add(place);
      recordings.set(song.id, place);
      tracks.push({ song, discNumber: medium.position, trackNumber: track.position });
    }
  }
  return tracks;
}

/** The song of one track: its recording, with the track's title, length and credit (else the release's) where the recording lacks them. */
function trackSong(ctx: ReadContext, track: Json, path: string, releaseCredit: Credit | undefined): StagedSong | null {
  const durationMs = optCount(ctx, track, 'length', path);
  const title = cleanText(ctx, optString(ctx, track, 'title', path), at(path, 'title'));
  const credit = readCredit(ctx, track, path) ?? releaseCredit;
  const recording = optObject(ctx, track, 'recording', path);
  if (!recording) {
    ctx.report.skip(ctx.where, `track at ${ctx.prefix}${path}`, 'has no recording');
    return null;
  }
  return mapRecording(ctx, recording, at(path, 'recording'), { title, durationMs, credit });
}
