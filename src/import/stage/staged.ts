/**
 * What a streamed importer (DDEX ERN, MusicBrainz) hands the catalog stage: releases, takedowns,
 * recordings and artists, each tagged with the unit of input it came from. The stage
 * (catalog-stage.ts) keeps none of it in memory: it sorts everything out of core, keeps the
 * latest word on each release, drops what no surviving release or entity needs, and writes the
 * raw CSV in id order, so the same inputs give the same bytes in any file order.
 *
 * Values must already be valid raw cells (docs/raw-format.md): ids of `A-Z a-z 0-9 . _ ~ -` up to
 * 64 characters, ISRCs normalised (12 characters, upper case), UPCs as 12 or 13 digits with a good
 * check digit, dates `YYYY[-MM[-DD]]`, absolute http(s) URLs. The readers check and normalise
 * (src/raw/codes.ts has the ISRC and GS1 helpers) and report what they leave out.
 */

/** One unit of input: a DDEX message, a MusicBrainz JSON line or WS/2 document. */
export interface SourceUnit {
  /** Names the unit in messages, e.g. `batch/0001.xml` or `release.jsonl:1234`. */
  readonly where: string;
  /**
   * When the sender created the unit, as UTC `YYYY-MM-DDTHH:MM:SS.fffffffZ` (normalisedCreated()
   * in source-unit.ts), or '' when the format has no such time. A later unit's word on a release
   * replaces an earlier one's.
   */
  readonly created: string;
  /** Hex SHA-256 of the unit's bytes: orders units created at the same time, never the file order. */
  readonly digest: string;
}

export interface StagedArtist {
  readonly id: string;
  readonly name: string;
  readonly genres?: readonly string[];
  readonly artworkUrl?: string;
}

export interface StagedSong {
  readonly id: string;
  /** The title, with its subtitle or version where the source has one: `Title (Live)`. */
  readonly name: string;
  readonly isrc?: string;
  readonly durationMs?: number;
  readonly genres?: readonly string[];
  readonly releaseDate?: string;
  readonly artworkUrl?: string;
  /** Credited artists in display order (main artist first); each becomes an artists.csv row. */
  readonly artists: readonly StagedArtist[];
  /** The credit as the source displays it, join phrases included: `A feat. B & C`. */
  readonly artistName?: string;
  /** Parental warning: true explicit, false not explicit, absent unknown. */
  readonly explicit?: boolean;
  /** The (P) line: `2019 Label Ltd`. */
  readonly pLine?: string;
}

export interface StagedTrack {
  readonly song: StagedSong;
  /** 1-based. */
  readonly discNumber: number;
  /** 1-based, unique within its disc. */
  readonly trackNumber: number;
}

export interface StagedAlbum {
  /** The release id updates and takedowns refer to. */
  readonly id: string;
  readonly name: string;
  readonly upc?: string;
  /** The release's GRid (18 characters), kept for reference. */
  readonly grid?: string;
  readonly label?: string;
  readonly releaseDate?: string;
  readonly artworkUrl?: string;
  readonly genres?: readonly string[];
  readonly artists: readonly StagedArtist[];
  readonly artistName?: string;
  readonly pLine?: string;
  readonly cLine?: string;
  readonly tracks: readonly StagedTrack[];
}

/** Where readers put what they read. */
export interface CatalogSink {
  /** A release as `unit` delivers it: replaces what earlier units said of the same album id. */
  release(unit: SourceUnit, album: StagedAlbum): void;
  /** The release is taken down as of `unit`: gone unless a later unit delivers it again. */
  takedown(unit: SourceUnit, albumId: string): void;
  /** A recording on its own (a MusicBrainz recording dump line): kept even when no release lists it. */
  song(unit: SourceUnit, song: StagedSong): void;
  /** An artist on its own (a MusicBrainz artist dump line): kept even when nothing credits it. */
  artist(unit: SourceUnit, artist: StagedArtist): void;
}

/** What readers report besides the catalog: skipped items, warnings, progress. */
export interface ImportReport {
  /**
   * An item left out, with why (`where` names file and line or element path). Under `--strict`
   * this throws an ImportError (E_IMPORT_SKIPPED) instead, which fails the import.
   */
  skip(where: string, item: string, reason: string): void;
  /** Something kept but changed or worth a look (a bad UPC left empty, an unknown genre scheme). */
  warn(where: string, message: string): void;
  /** Counts one unit read (a message, a JSON line) and the input bytes it took: summary and progress. */
  unit(kind: string, bytes: number): void;
}
