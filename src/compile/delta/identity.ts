import type { SegmentType } from '../../catalog/segments.js';
import { normalizeGtin13 } from '../../raw/codes.js';

/**
 * What makes a resource the same resource in two compiles of a changing catalog, and the keys a
 * delta's key tables hold for it, both read from its record (records.ts): the delta between two
 * snapshots is found and written from these alone.
 */

type AnyRecord = Record<string, unknown>;

/** The resource's identity within its type: its local id; a genre's name; lyrics' song and language. */
export function identityOf(type: SegmentType, record: AnyRecord): string {
  if (type === 'genre') return String(record.name);
  if (type === 'lyrics') return `${record.songId}\u0000${record.language}`;
  return String(record.id);
}

/** The resource type a relationship's targets are (`album.tracks` -> song). */
export const RELATION_TARGETS: Record<string, SegmentType> = {
  'song.albums': 'album',
  'song.artists': 'artist',
  'song.files': 'file',
  'song.lyrics': 'lyrics',
  'song.playlists': 'playlist',
  'album.tracks': 'song',
  'album.artists': 'artist',
  'artist.songs': 'song',
  'artist.albums': 'album',
  'genre.songs': 'song',
  'playlist.tracks': 'song',
  'station.tracks': 'song',
};

/** Key tables whose keys several resources may share: listed in local-id order, as write-indexes.ts adds them. */
export const MULTI_VALUED_KEYS = new Set(['song.isrc', 'album.upc']);

/** The keys a key table holds for one resource (none when the record has no such value). */
export function keysOf(table: string, record: AnyRecord): string[] {
  const field = table.slice(table.indexOf('.') + 1);
  if (field === 'id') return [String(record.id)];
  if (field === 'omm') return [String(record.ommId)];
  if (table === 'song.isrc') return record.isrc ? [String(record.isrc)] : [];
  if (table === 'album.upc') {
    const gtin = record.upc ? normalizeGtin13(String(record.upc)) : null;
    return gtin ? [gtin] : [];
  }
  if (table === 'genre.name') return [String(record.name).normalize('NFKC').toLowerCase()];
  throw new Error(`no rule for the keys of table ${table}: a delta cannot be written for it`);
}
