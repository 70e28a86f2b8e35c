import { Packr } from 'msgpackr';

/** The keys of a file record, in the order edge-records.ts writes them. */
export const FILE_RECORD_KEYS = [
  'id',
  'songId',
  'mimeType',
  'codec',
  'lossless',
  'bitrateKbps',
  'sampleRateHz',
  'channels',
  'sizeBytes',
  'durationMs',
  'streamUrl',
  'downloadUrl',
  'preferred',
];
/** The keys of a lyrics record. */
export const LYRICS_RECORD_KEYS = ['songId', 'language', 'text', 'ttml'];
/** The keys of a song record, in the order song-records.ts writes them. */
export const SONG_RECORD_KEYS = [
  'id',
  'ommId',
  'name',
  'isrc',
  'durationMs',
  'genres',
  'releaseDate',
  'artworkUrl',
  'popularity',
  'dateAdded',
  'albumId',
  'albumName',
  'trackNumber',
  'discNumber',
  'artistName',
  'artistNames',
  'lyricsLanguages',
];

/**
 * msgpackr shared structures declared before any record is packed: the tables written on another
 * thread (files and lyrics by the first pass, songs beside the other records) pack with these and no others, so their bytes name
 * the same structure ids as the compile's own Packr, whose list (these first) the manifest keeps.
 */
const DECLARED = [FILE_RECORD_KEYS, LYRICS_RECORD_KEYS, SONG_RECORD_KEYS];

/** A Packr for record tables, its shared structures starting with the declared ones. */
export function newRecordPackr(): Packr {
  const structures = DECLARED.map((keys) => [...keys]) as unknown[][] & { sharedLength?: number };
  structures.sharedLength = structures.length;
  return new Packr({ structures, maxSharedStructures: 64 });
}

/** How many shared structures a Packr from newRecordPackr holds now. */
export function sharedStructureCount(packr: Packr): number {
  return (packr as unknown as { structures: unknown[] }).structures.length;
}

export const DECLARED_STRUCTURES = DECLARED.length;
