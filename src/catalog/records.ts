/**
 * The records a snapshot stores (written by src/compile/write-records.ts), as the server reads
 * them. Absent values are null.
 */
export interface SongRecord {
  id: string;
  ommId: string;
  name: string;
  isrc: string | null;
  durationMs: number | null;
  genres: string[];
  releaseDate: string | null;
  artworkUrl: string | null;
  popularity: number;
  dateAdded: string | null;
  albumId: string | null;
  albumName: string | null;
  trackNumber: number | null;
  discNumber: number | null;
  artistName: string | null;
  artistNames: string[];
  lyricsLanguages: string[];
}

export interface AlbumRecord {
  id: string;
  ommId: string;
  name: string;
  upc: string | null;
  label: string | null;
  releaseDate: string | null;
  artworkUrl: string | null;
  genres: string[];
  popularity: number;
  dateAdded: string | null;
  trackCount: number;
  artistName: string | null;
  artistNames: string[];
}

export interface ArtistRecord {
  id: string;
  ommId: string;
  name: string;
  artworkUrl: string | null;
  genres: string[];
  popularity: number;
  dateAdded: string | null;
}

export interface PlaylistRecord {
  id: string;
  name: string;
  curatorName: string | null;
  description: string | null;
  artworkUrl: string | null;
  genres: string[];
  popularity: number;
  dateAdded: string | null;
  trackCount: number;
}

export type StationSeed =
  | { kind: 'custom' }
  | { kind: 'popular' }
  | { kind: 'genre'; name: string }
  | { kind: 'resource'; type: 'song' | 'album' | 'artist'; id: string };

export interface StationRecord {
  id: string;
  name: string;
  description: string | null;
  artworkUrl: string | null;
  seed: StationSeed;
  trackCount: number;
}

export interface FileRecord {
  id: string;
  songId: string;
  mimeType: string;
  codec: string | null;
  lossless: boolean;
  bitrateKbps: number | null;
  sampleRateHz: number | null;
  channels: number | null;
  sizeBytes: number | null;
  /** The file's own duration; null when its row has none (renderers show the song's then). */
  durationMs: number | null;
  streamUrl: string | null;
  downloadUrl: string | null;
  preferred: boolean;
}

export interface LyricsRecord {
  songId: string;
  language: string;
  text: string;
  ttml: string | null;
}

export interface GenreRecord {
  name: string;
  stationId: string;
  songCount: number;
}
