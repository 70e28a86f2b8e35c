/**
 * The synthetic catalog as its writers (raw CSV, DDEX, MusicBrainz) see it: artists first, then
 * each album with its songs, then the compilations, handed over one at a time and dropped after.
 * Nothing here holds the catalog: a writer gets a release, writes it, and lets it go.
 */
import type { Namer } from './names.js';
import type { Script } from './vocabulary.js';

export interface GenArtist {
  readonly index: number;
  /** `ar<index>`. */
  readonly id: string;
  readonly name: string;
  /** An index into SCRIPTS. */
  readonly script: number;
  readonly artworkUrl: string | null;
  /** One or two genre names, the first the artist's own. */
  readonly genres: readonly string[];
  readonly popularity: number;
  readonly dateAdded: string;
}

export interface GenSong {
  readonly index: number;
  /** `s<index>`. */
  readonly id: string;
  /** The title as the raw catalog has it: `Name (feat. X) - Live`. */
  readonly name: string;
  /** The version suffix at the end of `name` (` - Live`, ` (Acoustic)`), or null. */
  readonly versionSuffix: string | null;
  readonly isrc: string;
  readonly durationMs: number;
  /** Null for most songs (they take their album's). */
  readonly genres: readonly string[] | null;
  readonly popularity: number;
  readonly dateAdded: string;
  /** Credited artists (indices), main artist first, then the featured ones. */
  readonly credits: readonly number[];
  /** The script of the song's album artist: names and lyrics are drawn in it. */
  readonly script: Script;
  /** The release date of the album the song was made for. */
  readonly firstReleaseDate: string;
}

export interface GenTrack {
  readonly song: GenSong;
  readonly disc: number;
  readonly track: number;
}

export interface GenRelease {
  /** An album made of its own songs, or a compilation of songs from the albums. */
  readonly kind: 'album' | 'compilation';
  /** Album or compilation number (each counts from 0). */
  readonly index: number;
  /** `al<index>` or `comp<index>`. */
  readonly id: string;
  readonly name: string;
  /** UPC-A or EAN-13 with its GS1 check digit. */
  readonly upc: string;
  readonly label: string | null;
  readonly releaseDate: string;
  readonly artworkUrl: string;
  /** Null for compilations. */
  readonly genres: readonly string[] | null;
  readonly popularity: number;
  /** Null for compilations. */
  readonly dateAdded: string | null;
  /** Credited artists (indices), in order. */
  readonly artists: readonly number[];
  /** In disc and track order; a compilation's track numbers skip a song it drew twice. */
  readonly tracks: readonly GenTrack[];
}

/** What writers may ask of the catalog as a whole: its sizes and the per-artist numbers. */
export interface CatalogShape {
  readonly seed: number;
  readonly songs: number;
  readonly artistCount: number;
  readonly albumCount: number;
  readonly compilationCount: number;
  readonly namer: Namer;
  artistName(index: number): string;
  /** The artist's own genre (the first of its genres). */
  artistGenre(index: number): string;
}

/** One output format. Calls come in order: every artist, then every album, then every compilation, then end. */
export interface CatalogWriter {
  artist(artist: GenArtist): void;
  release(release: GenRelease): void;
  /** Finishes and closes the output; returns what was written, by kind. */
  end(): Record<string, number>;
}
