import { ExternalSorter } from '../../sort/external-sort.js';
import { writeFileFacts } from '../../raw/file-facts.js';
import { invertedVersion, MARKER_VERSION, StageKind, StageRecordWriter } from './stage-keys.js';
import { type AlbumCells, type ArtistCells, type StageCounts, type SongCells, type StageOutput, type TrackCells, writeStage } from './stage-output.js';
import { type StageStateRuns, StageStateWriter } from './stage-state.js';
import { RawWriters, STAGED_FILES } from './raw-writers.js';
import { applySparse } from './sparse-apply.js';
import { FOLD_FRACTION, foldedRun } from './state-layers.js';
import { TOUCHED_ID_BYTES, TouchedIds } from './touched-ids.js';
import type { ChangeJournalWriter } from '../../raw/change-journal.js';
import type { CatalogSink, ImportReport, SourceUnit, StagedAlbum, StagedArtist, StagedSong } from './staged.js';

export type { StageCounts } from './stage-output.js';

/**
 * The out-of-core catalog a streamed import builds. Every call is turned into sorter records
 * (stage-keys.ts): an album's row, credits and tracks under its id and the unit's version; each
 * song and artist it names under theirs. `finish` then reads the albums in id order, keeps the
 * latest version of each (dropping it when that is a takedown), marks the songs and artists the
 * survivors use, and writes songs and artists that are marked or stand on their own. Memory is
 * the sorters' budget, whatever the input's size; output is in id order, so it does not depend
 * on the order of the inputs.
 */
export class CatalogStage implements CatalogSink {
  private readonly albums: ExternalSorter;
  private readonly songs: ExternalSorter;
  private readonly artists: ExternalSorter;
  private readonly records = new StageRecordWriter();
  private readonly counts: StageCounts = {
    releases: 0,
    takedowns: 0,
    tracks: 0,
    albumsTakenDown: 0,
    releasesReplaced: 0,
    releasesAdded: 0,
    releasesUpdated: 0,
    releasesUnchanged: 0,
    songsAdded: 0,
    songsRemoved: 0,
    artistsAdded: 0,
    artistsRemoved: 0,
    songsDropped: 0,
    artistsDropped: 0,
    rows: {},
  };

  /** The ids this import touches, when applied to a previous one; null otherwise. */
  private readonly touched: TouchedIds | null;

  /**
   * With `previous`, the state a previous import left (stage-state.ts): this import is applied to
   * it, id by id for the ids it touches while they fit in memory (sparse-apply.ts), else to the
   * whole state.
   */
  constructor(
    private readonly spillDir: string,
    memoryBytes: number,
    private readonly report: ImportReport,
    private readonly previous: StageStateRuns | null = null,
    private readonly foldFraction = FOLD_FRACTION,
  ) {
    this.albums = new ExternalSorter(spillDir, 'albums', Math.floor(memoryBytes / 4));
    this.songs = new ExternalSorter(spillDir, 'songs', Math.floor(memoryBytes / 2));
    this.artists = new ExternalSorter(spillDir, 'artists', Math.floor(memoryBytes / 4));
    this.touched = previous ? new TouchedIds(Math.floor(memoryBytes / TOUCHED_ID_BYTES)) : null;
  }

  release(unit: SourceUnit, album: StagedAlbum): void {
    const version = invertedVersion(unit);
    this.counts.releases++;
    this.touched?.add('albums', album.id);
    const cells: AlbumCells = [
      album.name,
      album.upc,
      album.label,
      album.releaseDate,
      album.artworkUrl,
      album.genres,
      album.artistName,
      album.grid,
      album.pLine,
      album.cLine,
    ];
    this.albums.add(this.records.key(album.id, version, StageKind.Row, 0), this.records.value(JSON.stringify(cells)));
    const artistsStaged = new Set<string>();
    this.credits(this.albums, album.id, version, album.artists, artistsStaged);
    const songsStaged = new Set<string>();
    const slots = new Set<string>();
    const tracks = [...album.tracks].sort((a, b) => a.discNumber - b.discNumber || a.trackNumber - b.trackNumber);
    let index = 0;
    for (const track of tracks) {
      const slot = `${track.discNumber}.${track.trackNumber}`;
      if (songsStaged.has(track.song.id)) {
        this.report.warn(unit.where, `release ${album.id}: recording ${track.song.id} is listed twice; kept at its first position`);
        continue;
      }
      if (slots.has(slot)) {
        this.report.warn(unit.where, `release ${album.id}: disc ${track.discNumber} track ${track.trackNumber} is given twice; ${track.song.id} left out`);
        continue;
      }
      songsStaged.add(track.song.id);
      slots.add(slot);
      const trackCells: TrackCells = [track.song.id, track.discNumber, track.trackNumber];
      this.albums.add(this.records.key(album.id, version, StageKind.Track, index++), this.records.value(JSON.stringify(trackCells)));
      this.stageSong(version, track.song, artistsStaged);
      this.counts.tracks++;
    }
  }

  takedown(unit: SourceUnit, albumId: string): void {
    this.counts.takedowns++;
    this.touched?.add('albums', albumId);
    this.albums.add(this.records.key(albumId, invertedVersion(unit), StageKind.Row, 0));
  }

  song(unit: SourceUnit, song: StagedSong): void {
    this.stageSong(invertedVersion(unit), song, new Set());
    this.songs.add(this.records.key(song.id, MARKER_VERSION, StageKind.Keep, 0));
  }

  artist(unit: SourceUnit, artist: StagedArtist): void {
    this.stageArtist(invertedVersion(unit), artist, new Set());
    this.artists.add(this.records.key(artist.id, MARKER_VERSION, StageKind.Keep, 0));
  }

  private stageSong(version: Uint8Array, song: StagedSong, artistsStaged: Set<string>): void {
    this.touched?.add('songs', song.id);
    const cells: SongCells = [
      song.name,
      song.isrc,
      song.durationMs,
      song.genres,
      song.releaseDate,
      song.artworkUrl,
      song.artistName,
      song.explicit,
      song.pLine,
    ];
    this.songs.add(this.records.key(song.id, version, StageKind.Row, 0), this.records.value(JSON.stringify(cells)));
    this.credits(this.songs, song.id, version, song.artists, artistsStaged);
  }

  /** Credit records in order, each artist once; stages each artist once per unit. */
  private credits(sorter: ExternalSorter, ownerId: string, version: Uint8Array, artists: readonly StagedArtist[], artistsStaged: Set<string>): void {
    const credited = new Set<string>();
    for (const artist of artists) {
      if (credited.has(artist.id)) continue;
      sorter.add(this.records.key(ownerId, version, StageKind.Credit, credited.size), this.records.value(artist.id));
      credited.add(artist.id);
      this.stageArtist(version, artist, artistsStaged);
    }
  }

  private stageArtist(version: Uint8Array, artist: StagedArtist, staged: Set<string>): void {
    if (staged.has(artist.id)) return;
    staged.add(artist.id);
    this.touched?.add('artists', artist.id);
    const cells: ArtistCells = [artist.name, artist.genres, artist.artworkUrl];
    this.artists.add(this.records.key(artist.id, version, StageKind.Row, 0), this.records.value(JSON.stringify(cells)));
  }

  /**
   * Writes the raw CSV files into `dir`, in id order, and the import's state beside them
   * (`dir/.omm-stage/`, for the next delivery). The stage cannot be used afterwards.
   */
  finish(dir: string, journal: ChangeJournalWriter | null = null): StageCounts {
    const { previous, touched } = this;
    if (previous && touched && !touched.overflowed) {
      try {
        const sorters = { albums: this.albums, songs: this.songs, artists: this.artists };
        applySparse(
          { sorters, keys: this.records, counts: this.counts, previous, touched, workDir: this.spillDir, foldFraction: this.foldFraction },
          dir,
          journal,
        );
      } finally {
        this.dispose();
      }
      return this.counts;
    }
    if (previous) {
      this.albums.mergeWith(foldedRun(previous, 'albums', this.spillDir));
      this.songs.mergeWith(foldedRun(previous, 'songs', this.spillDir));
      this.artists.mergeWith(foldedRun(previous, 'artists', this.spillDir));
    }
    const writers = new RawWriters(dir);
    const state = new StageStateWriter(dir, this.records);
    const out: StageOutput = {
      albums: this.albums,
      songs: this.songs,
      artists: this.artists,
      keys: this.records,
      counts: this.counts,
      state,
      journal,
      writer: writers.writer,
      touched: null,
      previouslyLive: 0,
    };
    try {
      writeStage(out);
    } finally {
      for (const [file, rows] of writers.close()) this.counts.rows[file] = rows;
      this.dispose();
    }
    const recorded = state.finish(STAGED_FILES.map((file) => `${file}.csv`));
    journal?.finish();
    writeFileFacts(
      dir,
      Object.fromEntries(STAGED_FILES.map((file) => [`${file}.csv`, { rows: this.counts.rows[file], sha256: recorded[`${file}.csv`].sha256 }])),
    );
    return this.counts;
  }

  /** Removes every sorter's run files. */
  dispose(): void {
    this.albums.dispose();
    this.songs.dispose();
    this.artists.dispose();
  }
}
