import { normalizeIsrc } from '../../raw/codes.js';
import type { CatalogSink, ImportReport, SourceUnit, StagedAlbum, StagedArtist, StagedSong, StagedTrack } from '../stage/staged.js';
import { artworkUrl, coverFile } from './artwork.js';
import type { MessageKind } from './ern-root.js';
import { artistId, resolveRelease } from './ids.js';
import type { Credit, MainRelease, MessageModel, Party, Recording, Slot } from './model.js';
import { dealsTakeDown } from './read-deals.js';

export interface StageTarget {
  readonly unit: SourceUnit;
  readonly sink: CatalogSink;
  readonly report: ImportReport;
  readonly artworkBaseUrl?: string;
}

/** The object without its undefined fields and empty lists. */
function defined<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined && !(Array.isArray(v) && v.length === 0 && k === 'genres')) out[k] = v;
  return out as T;
}

/** Credited parties as catalog artists, in order, each once. A credit without a name is reported and left out. */
function artistsOf(credits: readonly Credit[], parties: ReadonlyMap<string, Party>, target: StageTarget, place: string): StagedArtist[] {
  const artists: StagedArtist[] = [];
  for (const credit of credits) {
    const party = credit.partyRef !== undefined ? parties.get(credit.partyRef) : credit;
    if (!party) {
      target.report.warn(place, `DisplayArtist names party ${credit.partyRef}, which is not in the PartyList; left out`);
      continue;
    }
    if (party.name === undefined) {
      target.report.warn(place, 'a DisplayArtist has no name; left out');
      continue;
    }
    const id = artistId(party.name, party.isni);
    if (!artists.some((a) => a.id === id)) artists.push({ id, name: party.name });
  }
  return artists;
}

const sameArtists = (a: readonly StagedArtist[], b: readonly StagedArtist[]): boolean => a.length === b.length && a.every((x, i) => x.id === b[i].id);

/**
 * Disc and track numbers for the release's recordings: as the groups give them, with a disc's
 * items numbered in order when any lacks a number, repeats one or is below 1; discs shifted up
 * when one is below 1.
 */
function numbered(slots: readonly Slot[], place: string, target: StageTarget): { ref: string; disc: number; track: number }[] {
  const minDisc = Math.min(...slots.map((s) => s.disc));
  const shift = minDisc < 1 ? 1 - minDisc : 0;
  const discs = new Map<number, Slot[]>();
  for (const s of slots) {
    const disc = s.disc + shift;
    if (!discs.has(disc)) discs.set(disc, []);
    discs.get(disc)!.push(s);
  }
  const out: { ref: string; disc: number; track: number }[] = [];
  for (const [disc, items] of discs) {
    const numbers = items.map((s) => s.track);
    const clean = numbers.every((n) => n !== undefined && n >= 1) && new Set(numbers).size === numbers.length;
    if (!clean && numbers.some((n) => n !== undefined)) {
      target.report.warn(place, `disc ${disc}: track SequenceNumbers are missing, repeated or below 1; tracks numbered in document order`);
    }
    items.forEach((s, i) => out.push({ ref: s.ref, disc, track: clean ? s.track! : i + 1 }));
  }
  return out;
}

/** The album's tracks. Recordings without an ISRC (or title) are skipped; a recording on the release twice is kept once. */
function tracksOf(release: MainRelease, model: MessageModel, album: { artists: StagedArtist[]; artistName?: string }, target: StageTarget): StagedTrack[] {
  const slots = release.slots.length > 0 ? release.slots : release.listed.map((ref): Slot => ({ ref, disc: 1 }));
  const onRelease = slots.filter((s) => {
    if (model.recordings.has(s.ref)) return true;
    if (!model.images.has(s.ref)) target.report.warn(release.place, `resource ${s.ref} is not a SoundRecording of the message; not a track`);
    return false;
  });
  const tracks: StagedTrack[] = [];
  const seen = new Set<string>();
  for (const slot of onRelease.length > 0 ? numbered(onRelease, release.place, target) : []) {
    const recording = model.recordings.get(slot.ref)!;
    seen.add(slot.ref);
    const song = songOf(recording, model, album, target);
    if (!song) continue;
    if (tracks.some((t) => t.song.id === song.id)) {
      target.report.warn(recording.place, `ISRC ${song.id} is on the release more than once; disc ${slot.disc} track ${slot.track} left out`);
      continue;
    }
    tracks.push({ song, discNumber: slot.disc, trackNumber: slot.track });
  }
  for (const recording of model.recordings.values()) {
    if (!seen.has(recording.ref)) target.report.warn(recording.place, `SoundRecording ${recording.ref} is not on the main release; left out`);
  }
  return tracks.sort((a, b) => a.discNumber - b.discNumber || a.trackNumber - b.trackNumber);
}

function songOf(recording: Recording, model: MessageModel, album: { artists: StagedArtist[]; artistName?: string }, target: StageTarget): StagedSong | null {
  const isrc = recording.isrc !== undefined ? normalizeIsrc(recording.isrc) : null;
  if (!isrc) {
    const invalid = recording.isrc !== undefined ? ` (ISRC "${recording.isrc}" is not valid)` : '';
    target.report.skip(recording.place, `track ${recording.title ?? recording.ref}${invalid}`, 'no ISRC');
    return null;
  }
  if (recording.title === undefined) {
    target.report.skip(recording.place, `track ${isrc}`, 'no title');
    return null;
  }
  const own = artistsOf(recording.credits, model.parties, target, recording.place);
  const inherits = recording.credits.length === 0;
  const artists = inherits ? album.artists : own;
  return defined<StagedSong>({
    id: isrc,
    name: recording.title,
    isrc,
    durationMs: recording.durationMs,
    genres: recording.genres,
    releaseDate: recording.releaseDate,
    artists,
    // A recording that credits no one, or the album's artists, shows the album's credit string.
    artistName: recording.artistName ?? (inherits || sameArtists(own, album.artists) ? album.artistName : undefined),
    explicit: recording.explicit,
    pLine: recording.pLine,
  });
}

/** The main release: the one flagged (IsMainRelease, or 4.x's Release), else the first that is not a track release. */
function mainRelease(model: MessageModel, target: StageTarget): MainRelease | undefined {
  const main = model.releases.find((r) => r.flagged) ?? model.releases[0];
  for (const other of model.releases) {
    if (other !== main) target.report.warn(other.place, `a further release besides the main one (${main?.ref ?? '?'}); left out`);
  }
  return main;
}

/** Hands one message's word to the sink: a release, or takedowns. */
export function stageMessage(kind: MessageKind, model: MessageModel & { created: string }, target: StageTarget): void {
  const { unit, sink, report } = target;
  if (kind === 'PurgeReleaseMessage') {
    if (model.purged.length === 0) report.skip(unit.where, 'message', 'the PurgeReleaseMessage names no release');
    for (const purged of model.purged) {
      const { id } = resolveRelease(purged.ids);
      if (id === undefined) report.skip(unit.where, `release ${purged.title ?? '(untitled)'}`, 'no ICPN, GRid or ProprietaryId');
      else sink.takedown(unit, id);
    }
    return;
  }
  const release = mainRelease(model, target);
  if (!release) {
    report.skip(unit.where, 'message', 'no main release (no Release that is not a TrackRelease)');
    return;
  }
  const resolved = resolveRelease(release.ids);
  if (resolved.id === undefined) {
    report.skip(unit.where, `release ${release.title ?? release.ref ?? '(untitled)'}`, 'no ICPN, GRid or ProprietaryId');
    return;
  }
  const deals = release.ref !== undefined ? model.deals.get(release.ref) : undefined;
  if (dealsTakeDown(deals, model.created)) {
    sink.takedown(unit, resolved.id);
    return;
  }
  for (const warning of resolved.warnings) report.warn(release.place, warning);
  if (release.title === undefined) {
    report.skip(release.place, `release ${resolved.id}`, 'no title');
    return;
  }
  const artists = artistsOf(release.credits, model.parties, target, release.place);
  const label = release.label ?? (release.labelPartyRef !== undefined ? model.parties.get(release.labelPartyRef)?.name : undefined);
  const album: StagedAlbum = defined<StagedAlbum>({
    id: resolved.id,
    name: release.title,
    upc: resolved.upc,
    grid: resolved.grid,
    label,
    releaseDate: release.releaseDate ?? deals?.earliestStart,
    artworkUrl: artworkUrl(coverFile(release, model.images), target.artworkBaseUrl),
    genres: release.genres,
    artists,
    artistName: release.artistName,
    pLine: release.pLine,
    cLine: release.cLine,
    tracks: tracksOf(release, model, { artists, artistName: release.artistName }, target),
  });
  sink.release(unit, album);
}
