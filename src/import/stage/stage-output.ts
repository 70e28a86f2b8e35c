import type { RawCsvWriter } from '../../raw/csv-writer.js';
import type { RawFileName } from '../../raw/schema.js';
import type { ExternalSorter } from '../../sort/external-sort.js';
import { forEachId, type IdGroup, recordsOf, type StageRecord } from './id-groups.js';
import { MARKER_VERSION, StageKind, type StageRecordWriter } from './stage-keys.js';
import type { StageStateWriter } from './stage-state.js';
import type { ChangeJournalWriter } from '../../raw/change-journal.js';
import type { TouchedIds } from './touched-ids.js';

/*
 * The stage's last step: each sorter read id by id, albums then songs then artists, the raw CSV
 * written in id order, and the state for the next delivery beside it. What survives follows the
 * latest word on each album; a song or artist is written when it stands on its own or something
 * that survives refers to it. Those references are counted, and an import applied to a previous
 * one (--into) only adds and removes the references of what changed: an album whose latest word
 * changed takes back its old credits and tracks and gives its new ones, a song whose row or
 * presence changed does the same for its credits. So the work beyond reading and writing every
 * row is in proportion to the delivery, and the result is the one importing everything at once
 * would give.
 */

type Text = string | undefined;
type List = readonly string[] | undefined;
/** name, upc, label, release date, artwork, genres, artist name, GRid, (P) line, (C) line. */
export type AlbumCells = [string, Text, Text, Text, Text, List, Text, Text, Text, Text];
/** name, ISRC, duration, genres, release date, artwork, artist name, explicit, (P) line. */
export type SongCells = [string, Text, number | undefined, List, Text, Text, Text, boolean | undefined, Text];
/** name, genres, artwork. */
export type ArtistCells = [string, List, Text];
export type TrackCells = [string, number, number];

/** What changed, for the import's summary. */
export interface OutputCounts {
  /** Albums whose latest word is now a takedown, and which were live (or never seen) before. */
  albumsTakenDown: number;
  /** Releases replaced by a later word on the same album id. */
  releasesReplaced: number;
  releasesAdded: number;
  releasesUpdated: number;
  releasesUnchanged: number;
  songsAdded: number;
  songsRemoved: number;
  artistsAdded: number;
  artistsRemoved: number;
  /** Songs and artists staged by this import that no surviving release or entity needs. */
  songsDropped: number;
  artistsDropped: number;
}

/** What the stage did, for the import's summary. */
export interface StageCounts extends OutputCounts {
  releases: number;
  takedowns: number;
  tracks: number;
  /** Rows written per raw file. */
  rows: Record<string, number>;
}

export interface StageOutput {
  readonly albums: ExternalSorter;
  readonly songs: ExternalSorter;
  readonly artists: ExternalSorter;
  readonly keys: StageRecordWriter;
  readonly counts: OutputCounts;
  readonly state: StageStateWriter;
  /** The change journal of an import applied to a previous one (--into), or null. */
  readonly journal: ChangeJournalWriter | null;
  /** Applied to a previous import id by id (sparse-apply.ts): each id a Ref or Unref names is noted. */
  readonly touched: TouchedIds | null;
  /** Albums met that were live after the previous import. */
  previouslyLive: number;
  writer(file: RawFileName): RawCsvWriter;
}

const decoder = new TextDecoder();
const parse = <T>(bytes: Uint8Array): T => JSON.parse(decoder.decode(bytes)) as T;

/** A Ref (+1) or Unref (-1) for each id a list of records names (an artist id, or a track's song id). */
function refer(
  out: StageOutput,
  sorter: 'songs' | 'artists',
  records: readonly StageRecord[],
  kind: StageKind.Ref | StageKind.Unref,
  idOf: (r: StageRecord) => string,
): void {
  for (const r of records) {
    const id = idOf(r);
    out[sorter].add(out.keys.key(id, MARKER_VERSION, kind, 0));
    out.touched?.add(sorter, id);
  }
}

const creditId = (r: StageRecord): string => decoder.decode(r.value);
const trackSongId = (r: StageRecord): string => parse<TrackCells>(r.value)[0];

/**
 * Writes albums, then songs, then artists (each sorter's `before` first: an import applied id by
 * id reads its previous state then); on an error the state and the journal are abandoned.
 */
export function writeStage(out: StageOutput, before: (sorter: 'albums' | 'songs' | 'artists') => void = () => undefined): void {
  try {
    before('albums');
    writeAlbums(out);
    before('songs');
    writeSongs(out);
    before('artists');
    writeArtists(out);
  } catch (err) {
    out.state.abandon();
    out.journal?.abandon();
    throw err;
  }
}

export function writeAlbums(out: StageOutput): void {
  forEachId(out.albums, (group) => {
    const { counts } = out;
    if (group.versions > 1) counts.releasesReplaced += group.versions - 1;
    const row = group.latest.find((r) => r.kind === StageKind.Row);
    const live = row !== undefined && row.value.length > 0;
    const previous = group.previous;
    const changed = !previous || !previous.version.equals(group.version);
    if (previous?.present) out.previouslyLive++;
    if (changed) {
      if (previous?.present) {
        refer(out, 'artists', recordsOf(previous.records, StageKind.Credit), StageKind.Unref, creditId);
        refer(out, 'songs', recordsOf(previous.records, StageKind.Track), StageKind.Unref, trackSongId);
      }
      if (live) {
        refer(out, 'artists', recordsOf(group.latest, StageKind.Credit), StageKind.Ref, creditId);
        refer(out, 'songs', recordsOf(group.latest, StageKind.Track), StageKind.Ref, trackSongId);
      }
    }
    if (!live) {
      if (!previous || previous.present) counts.albumsTakenDown++;
      if (previous?.present) out.journal?.note('album', group.id, 'removed');
    } else if (!previous?.present) {
      counts.releasesAdded++;
      out.journal?.note('album', group.id, 'added');
    } else if (changed) {
      counts.releasesUpdated++;
      out.journal?.note('album', group.id, 'updated');
    } else counts.releasesUnchanged++;
    if (live) writeAlbumRows(out, group, row);
    out.state.group('albums', group, live, 0);
  });
}

function writeAlbumRows(out: StageOutput, { id, latest }: IdGroup, row: StageRecord): void {
  const [name, upc, label, releaseDate, artworkUrl, genres, artistName, grid, pLine, cLine] = parse<AlbumCells>(row.value);
  out.writer('albums').write({
    id,
    name,
    upc,
    label,
    release_date: releaseDate,
    artwork_url: artworkUrl,
    genres,
    artist_name: artistName,
    x_grid: grid,
    x_p_line: pLine,
    x_c_line: cLine,
  });
  for (const credit of recordsOf(latest, StageKind.Credit)) {
    out.writer('album_artists').write({ album_id: id, artist_id: creditId(credit), position: credit.sequence + 1 });
  }
  for (const track of recordsOf(latest, StageKind.Track)) {
    const [songId, disc, number] = parse<TrackCells>(track.value);
    out.writer('album_tracks').write({ album_id: id, song_id: songId, disc_number: disc, track_number: number });
  }
}

export function writeSongs(out: StageOutput): void {
  forEachId(out.songs, (group) => {
    const { counts } = out;
    const written = group.keep || group.refs > 0;
    const previous = group.previous;
    const wasWritten = previous?.present ?? false;
    const changed = !previous || !previous.version.equals(group.version);
    if (changed || written !== wasWritten) {
      if (wasWritten) refer(out, 'artists', recordsOf(previous!.records, StageKind.Credit), StageKind.Unref, creditId);
      if (written) refer(out, 'artists', recordsOf(group.latest, StageKind.Credit), StageKind.Ref, creditId);
    }
    if (written && !wasWritten) counts.songsAdded++;
    if (!written && wasWritten) counts.songsRemoved++;
    if (!written && !wasWritten && changed) counts.songsDropped++;
    noteChange(out, 'song', group.id, written, wasWritten, changed);
    if (written) writeSongRows(out, group);
    out.state.group('songs', group, written, Math.max(0, group.refs));
  });
}

function writeSongRows(out: StageOutput, { id, latest }: IdGroup): void {
  const row = latest.find((r) => r.kind === StageKind.Row)!;
  const [name, isrc, durationMs, genres, releaseDate, artworkUrl, artistName, explicit, pLine] = parse<SongCells>(row.value);
  out.writer('songs').write({
    id,
    name,
    isrc,
    duration_ms: durationMs,
    genres,
    release_date: releaseDate,
    artwork_url: artworkUrl,
    artist_name: artistName,
    x_explicit: explicit,
    x_p_line: pLine,
  });
  for (const credit of recordsOf(latest, StageKind.Credit)) {
    out.writer('song_artists').write({ song_id: id, artist_id: creditId(credit), position: credit.sequence + 1 });
  }
}

/** A song's or artist's line in the change journal: written now and not before, the reverse, or written both times in a new version. */
function noteChange(out: StageOutput, type: 'song' | 'artist', id: string, written: boolean, wasWritten: boolean, changed: boolean): void {
  if (written && !wasWritten) out.journal?.note(type, id, 'added');
  else if (!written && wasWritten) out.journal?.note(type, id, 'removed');
  else if (written && changed) out.journal?.note(type, id, 'updated');
}

export function writeArtists(out: StageOutput): void {
  forEachId(out.artists, (group) => {
    const { counts } = out;
    const written = group.keep || group.refs > 0;
    const wasWritten = group.previous?.present ?? false;
    const changed = !group.previous || !group.previous.version.equals(group.version);
    if (written && !wasWritten) counts.artistsAdded++;
    if (!written && wasWritten) counts.artistsRemoved++;
    if (!written && !wasWritten && changed) counts.artistsDropped++;
    noteChange(out, 'artist', group.id, written, wasWritten, changed);
    if (written) {
      const [name, genres, artworkUrl] = parse<ArtistCells>(group.latest.find((r) => r.kind === StageKind.Row)!.value);
      out.writer('artists').write({ id: group.id, name, genres, artwork_url: artworkUrl });
    }
    out.state.group('artists', group, written, Math.max(0, group.refs));
  });
}
