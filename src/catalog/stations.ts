import type { Catalog } from './catalog.js';
import { liveDerivedTracks } from './live-stations.js';
import type { StationRecord } from './records.js';

/** A station as served: its record and its tracks (song ordinals, station order). */
export interface StationView {
  readonly record: StationRecord;
  readonly tracks: ArrayLike<number>;
}

/** Tracks of a song station: the seed, then its first artist's station. */
const SONG_STATION_LENGTH = 50;
export const SONG_STATION_PREFIX = 'song-';

export function stored(cat: Catalog, ordinal: number): StationView | null {
  if (ordinal < 0) return null;
  const record = cat.station(ordinal);
  // A station seeded by a taken-down song, album or artist went with it.
  if (cat.deletes && record.seed.kind === 'resource' && cat.resolve(record.seed.type, record.seed.id) < 0) return null;
  // Under a deletes set or over segments a derived station is made again from the songs in
  // service (as the next compile will), the others leave the taken-down out; the count follows.
  const derived = cat.deletes || cat.segments ? liveDerivedTracks(cat, record) : null;
  const tracks = derived ?? cat.relation('station.tracks').targetsOf(ordinal);
  return { record: tracks.length === record.trackCount ? record : { ...record, trackCount: tracks.length }, tracks };
}

/**
 * A song's station, composed on request from what the compiler precomputed (a station per song
 * would multiply the snapshot): the song itself, then its first artist's station, deduplicated.
 */
function songStation(cat: Catalog, song: number): StationView {
  const record = cat.song(song);
  const tracks: number[] = [song];
  const artists = cat.relation('song.artists').targetsOf(song, 0, 1);
  if (artists.length > 0) {
    const artistStation = stored(cat, cat.resolve('station', `artist-${cat.artist(artists[0]).id}`));
    if (artistStation) {
      for (const t of Array.from(artistStation.tracks)) {
        if (tracks.length >= SONG_STATION_LENGTH) break;
        if (t !== song) tracks.push(t);
      }
    }
  }
  return {
    record: {
      id: `${SONG_STATION_PREFIX}${record.id}`,
      name: record.name,
      description: null,
      artworkUrl: null,
      seed: { kind: 'resource', type: 'song', id: record.id },
      trackCount: tracks.length,
    },
    tracks,
  };
}

/** `/station/{id}`: a stored station id, or `song-<song id>`. */
export function stationById(cat: Catalog, id: string): StationView | null {
  const found = stored(cat, cat.resolve('station', id));
  if (found) return found;
  if (id.startsWith(SONG_STATION_PREFIX)) {
    const song = cat.resolve('song', id.slice(SONG_STATION_PREFIX.length));
    if (song >= 0) return songStation(cat, song);
  }
  return null;
}

/** `/stations/{type}/{id}`: the station seeded by a song, album or artist (local or catalog id). */
export function stationForResource(cat: Catalog, type: 'song' | 'album' | 'artist', id: string): StationView | null {
  const ordinal = cat.resolve(type, id);
  if (ordinal < 0) return null;
  if (type === 'song') return songStation(cat, ordinal);
  const localId = type === 'album' ? cat.album(ordinal).id : cat.artist(ordinal).id;
  return stored(cat, cat.resolve('station', `${type}-${localId}`));
}

/** `/stations/genres/{name}`: matched case-insensitively after Unicode normalisation. */
export function stationForGenre(cat: Catalog, name: string): StationView | null {
  const genre = cat.keys('genre.name').get(name.normalize('NFKC').toLowerCase());
  if (genre < 0) return null;
  return stored(cat, cat.resolve('station', cat.genre(genre).stationId));
}

export function popularStation(cat: Catalog): StationView | null {
  return stored(cat, cat.resolve('station', 'popular'));
}
