import type { Catalog } from './catalog.js';
import type { StationRecord } from './records.js';
import { fill, POPULAR_STATION_LENGTH, SEED_SHARE } from './station-rules.js';

/**
 * The tracks of a derived station under a deletes set, made again from the songs in service by
 * the compile's own rules (src/compile/relations/station-plan.ts), so a takedown serves what the
 * next full compile will: the popular station is the first POPULAR_LENGTH songs by popularity; an
 * artist's, their SEED_SHARE most popular songs, then songs of their first genre from a start
 * picked by their id; an album's, its SEED_SHARE most popular tracks, then its first artist's
 * mix (station-rules.ts, the compile's own). A genre's station is its songs as served. Over a
 * segmented snapshot (docs/segments.md) derived stations are made the same way, so a delta holds
 * a derived station only when it is new or its name changes, never because its tracks moved.
 */

/** Live tracks of a stored station whose seed the compile derived; null for custom stations. */
export function liveDerivedTracks(cat: Catalog, record: StationRecord): ArrayLike<number> | null {
  const seed = record.seed;
  if (seed.kind === 'popular') return Array.from(cat.order('song', 'popularity').slice(0, POPULAR_STATION_LENGTH));
  if (seed.kind === 'genre') {
    const genre = cat.keys('genre.name').get(seed.name.normalize('NFKC').toLowerCase());
    return genre < 0 ? [] : cat.relation('genre.songs').targetsOf(genre);
  }
  if (seed.kind !== 'resource' || seed.type === 'song') return null;
  const ordinal = cat.resolve(seed.type, seed.id);
  if (ordinal < 0) return null;
  if (seed.type === 'artist') return artistMix(cat, ordinal);
  const firstArtist = cat.relation('album.artists').targetsOf(ordinal, 0, 1)[0];
  const filler = firstArtist === undefined ? [] : artistMix(cat, firstArtist);
  return fill(mostPopular(cat, cat.relation('album.tracks').targetsOf(ordinal)), filler, cat.album(ordinal).id);
}

/** An artist's station: their most popular songs, then their first genre's songs. */
function artistMix(cat: Catalog, artist: number): number[] {
  const record = cat.artist(artist);
  const genre = record.genres.length > 0 ? cat.keys('genre.name').get(record.genres[0].normalize('NFKC').toLowerCase()) : -1;
  const filler = genre < 0 ? new Uint32Array(0) : cat.relation('genre.songs').targetsOf(genre);
  return fill(mostPopular(cat, cat.relation('artist.songs').targetsOf(artist)), filler, record.id);
}

function mostPopular(cat: Catalog, songs: Uint32Array): number[] {
  const rank = cat.rank('song', 'popularity');
  return [...songs].sort((x, y) => rank[x] - rank[y]).slice(0, SEED_SHARE);
}
