import { joinRecordTableParts, RecordTableWriter } from '../../index-format/tables/record-table-writer.js';
import type { WrittenShard } from '../../index-format/shards/shard-writer.js';
import { openAdjacency, targetsOf, type AdjacencyFiles } from '../relations/adjacency-files.js';
import { SongInheritance } from '../relations/song-inheritance.js';
import { mapU32Column, StringColumn } from '../spill/columns.js';
import { openEntity, type EntityFiles } from '../validate/entity-files.js';
import { NONE } from '../validate/raw-refs.js';
import { mapOrdinals } from '../../catalog/ordinal-slice.js';
import { allJobs, rowBatches, runWorkerJob, type RowsDone } from '../worker-job.js';
import { joinArtistNames } from './write-records.js';
import { orNull } from './cell-values.js';
import { isoDate } from './iso-date.js';
import { DECLARED_STRUCTURES, newRecordPackr, sharedStructureCount } from './record-packr.js';

/**
 * What the songs table is written from: column files only (paths), so it can cross to a worker.
 * The largest table by far (at 1M songs ~20 s of the records phase on one thread), so it is
 * written beside the others.
 */
export interface SongRecordsJob {
  readonly outDir: string;
  readonly buildId: string;
  readonly songs: EntityFiles;
  readonly albums: EntityFiles;
  readonly artists: EntityFiles;
  readonly genres: readonly string[];
  /** u32 by song: the primary album's ordinal, NONE without. */
  readonly primaryAlbum: string;
  /** u32 by song: the accepted album_tracks row of the primary album, NONE without. */
  readonly primaryTrack: string;
  /** u32 by accepted album_tracks row. */
  readonly trackDisc: string;
  readonly trackNumber: string;
  /** String column by lyrics ordinal. */
  readonly lyricsLanguages: string;
  readonly songArtists: AdjacencyFiles;
  readonly songLyrics: AdjacencyFiles;
}

/** One writer's share of the songs table: ordinals [from, to). */
export interface SongRange {
  readonly from: number;
  readonly to: number;
}

/**
 * From this many songs, the songs table and the song views are written in two ranges at once, on
 * two threads (below it a worker's start costs more than the split saves): the songs table
 * outlasted the other writers otherwise (at 1M songs, one thread wrote it for ~6 s after the rest
 * of the records and indexes were done).
 */
export const SPLIT_SONGS_FROM = 10_000;

/** Writes songs [from, to) of the songs table in ordinal order with every derived field; `onRows` is told of rows done. */
export function writeSongRecords(job: SongRecordsJob, range: SongRange, onRows?: RowsDone): WrittenShard[] {
  const packr = newRecordPackr();
  const songs = openEntity(job.songs);
  const albums = openEntity(job.albums);
  const artistNames = StringColumn.open(job.artists.names);
  const primaryAlbum = mapU32Column(job.primaryAlbum);
  const inherit = new SongInheritance(songs, albums, primaryAlbum);
  const primaryTrack = mapU32Column(job.primaryTrack);
  const trackDisc = mapU32Column(job.trackDisc);
  const trackNumber = mapU32Column(job.trackNumber);
  const lyricsLanguages = StringColumn.open(job.lyricsLanguages);
  const songArtists = openAdjacency(job.songArtists);
  const songLyrics = openAdjacency(job.songLyrics);
  const rows = rowBatches(onRows);
  const writer = new RecordTableWriter(job.outDir, 'songs', job.buildId, packr, { firstOrdinal: range.from });
  for (let s = range.from; s < range.to; s++) {
    const artistsOf = targetsOf(songArtists, s);
    const names = mapOrdinals(artistsOf, artistsOf.length, (a) => artistNames.get(a));
    const genres = inherit.genres(s);
    const lyrics = targetsOf(songLyrics, s);
    const trackRow = primaryTrack[s];
    const album = primaryAlbum[s];
    const hasAlbum = album !== NONE;
    const duration = songs.duration[s];
    writer.add({
      id: songs.ids.get(s),
      ommId: songs.ommIds.get(s),
      name: songs.names.get(s),
      isrc: orNull(songs.code.get(s)),
      durationMs: Number.isNaN(duration) ? null : duration,
      genres: mapOrdinals(genres, genres.length, (g) => job.genres[g]),
      releaseDate: orNull(inherit.releaseText(s)),
      artworkUrl: orNull(inherit.artwork(s)),
      popularity: songs.popularity[s],
      dateAdded: isoDate(songs.dateAdded[s]),
      albumId: hasAlbum ? albums.ids.get(album) : null,
      albumName: hasAlbum ? albums.names.get(album) : null,
      trackNumber: trackRow !== NONE ? trackNumber[trackRow] : null,
      discNumber: trackRow !== NONE ? trackDisc[trackRow] : null,
      artistName: songs.display.get(s) || joinArtistNames(names),
      artistNames: names,
      lyricsLanguages: mapOrdinals(lyrics, lyrics.length, (l) => lyricsLanguages.get(l)),
    });
    rows.tick();
  }
  const shards = writer.finish();
  rows.flush();
  // A record of another shape would have named a structure the compile's Packr does not have.
  if (sharedStructureCount(packr) !== DECLARED_STRUCTURES) throw new Error('song records packed a structure that was not declared (record-packr.ts)');
  return shards;
}

/**
 * Writes the songs table on worker threads (song-records-worker.ts) while this one writes the
 * others: in two halves on two workers from SPLIT_SONGS_FROM songs, then named as one table.
 */
export async function startSongRecords(job: SongRecordsJob, onRows?: RowsDone): Promise<WrittenShard[]> {
  const count = job.songs.count;
  const half = count >= SPLIT_SONGS_FROM ? Math.ceil(count / 2) : count;
  const ranges: SongRange[] =
    half < count
      ? [
          { from: 0, to: half },
          { from: half, to: count },
        ]
      : [{ from: 0, to: count }];
  const parts = await allJobs(
    ranges.map((range) =>
      runWorkerJob('song records', './song-records-worker.js', import.meta.url, { job, range }, (here) => writeSongRecords(job, range, here), onRows),
    ),
  );
  return joinRecordTableParts('songs', parts);
}
