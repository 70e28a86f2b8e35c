import type { CatalogIndex } from './catalog-index.js';
import type { DerivedCatalog } from './derive.js';
import { GrowableU32 } from '../index-format/u32.js';

/** How many tracks a derived resource station holds, and the popular station. */
export const STATION_LENGTH = 50;
export const POPULAR_STATION_LENGTH = 100;
const SEED_SHARE = 25;

export type StationSeed =
  | { kind: 'custom' }
  | { kind: 'popular' }
  | { kind: 'genre'; name: string }
  | { kind: 'resource'; type: 'artist' | 'album'; id: string };

export interface StationPlan {
  readonly ids: string[];
  readonly names: string[];
  readonly seeds: StationSeed[];
  /** For custom stations: the row ordinal in stations.csv, else -1. */
  readonly customOrdinal: number[];
  readonly offsets: Uint32Array;
  readonly targets: Uint32Array;
  /** genre ordinal -> station ordinal. */
  readonly genreStation: Uint32Array;
}

/** A URL-safe slug of a genre name; ids stay stable as long as the name does. */
export function genreSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.length > 0 ? slug.slice(0, 48) : 'genre';
}

/**
 * Computes every station at compile time, deterministically: custom stations (raw order),
 * the popular station, one station per genre (its songs by popularity), per artist (their most
 * popular songs, then popular songs of their first genre) and per album (its tracks by
 * popularity, then its first artist's station).
 */
export function planStations(index: CatalogIndex, derived: DerivedCatalog): StationPlan {
  const ids: string[] = [];
  const names: string[] = [];
  const seeds: StationSeed[] = [];
  const customOrdinal: number[] = [];
  const offsets: number[] = [0];
  const targets = new GrowableU32(1 << 16);
  const add = (id: string, name: string, seed: StationSeed, tracks: Iterable<number>, custom = -1) => {
    ids.push(id);
    names.push(name);
    seeds.push(seed);
    customOrdinal.push(custom);
    for (const t of tracks) targets.push(t);
    offsets.push(targets.length);
  };
  const slice = (adj: { offsets: Uint32Array; targets: Uint32Array }, i: number) => adj.targets.subarray(adj.offsets[i], adj.offsets[i + 1]);

  const custom = groupCustom(index);
  for (let s = 0; s < index.stations.count; s++) add(index.stations.ids[s], index.stations.names[s], { kind: 'custom' }, slice(custom, s), s);

  const popularity = derived.songs.orders.get('popularity')!;
  const popularityRank = derived.songs.ranks.get('popularity')!;
  add('popular', 'Popular', { kind: 'popular' }, popularity.subarray(0, POPULAR_STATION_LENGTH));

  const genreSongs = derived.relations.get('genre.songs')!;
  const genreStation = new Uint32Array(index.genreNames.length);
  const usedSlugs = new Set<string>();
  index.genreNames.forEach((name, g) => {
    let slug = genreSlug(name);
    for (let n = 2; usedSlugs.has(slug); n++) slug = `${genreSlug(name)}-${n}`;
    usedSlugs.add(slug);
    genreStation[g] = ids.length;
    add(`genre-${slug}`, name, { kind: 'genre', name }, slice(genreSongs, g));
  });

  const artistSongs = derived.relations.get('artist.songs')!;
  const artistMix: Uint32Array[] = [];
  for (let a = 0; a < index.artists.count; a++) {
    const own = [...slice(artistSongs, a)].sort((x, y) => popularityRank[x] - popularityRank[y]).slice(0, SEED_SHARE);
    const genre = derived.artistGenres[a]?.[0];
    const filler = genre === undefined ? new Uint32Array(0) : slice(genreSongs, genre);
    const tracks = fill(own, filler, index.artists.ids[a]);
    artistMix.push(Uint32Array.from(tracks));
    add(`artist-${index.artists.ids[a]}`, index.artists.names[a], { kind: 'resource', type: 'artist', id: index.artists.ids[a] }, tracks);
  }
  const albumTracks = derived.relations.get('album.tracks')!;
  const albumArtists = derived.relations.get('album.artists')!;
  for (let al = 0; al < index.albums.count; al++) {
    const own = [...slice(albumTracks, al)].sort((x, y) => popularityRank[x] - popularityRank[y]).slice(0, SEED_SHARE);
    const firstArtist = slice(albumArtists, al)[0];
    const filler = firstArtist === undefined ? new Uint32Array(0) : artistMix[firstArtist];
    add(`album-${index.albums.ids[al]}`, index.albums.names[al], { kind: 'resource', type: 'album', id: index.albums.ids[al] }, fill(own, filler, index.albums.ids[al]));
  }
  return { ids, names, seeds, customOrdinal, offsets: Uint32Array.from(offsets), targets: targets.view().slice(), genreStation };
}

/** The seed's own songs, then songs from `filler` (from a start picked by the seed id) up to the station length. */
function fill(own: number[], filler: ArrayLike<number>, seedId: string): number[] {
  const tracks = [...own];
  const seen = new Set(tracks);
  if (filler.length > 0) {
    const window = Math.min(filler.length, 500);
    const start = stableHash(seedId) % window;
    for (let i = 0; i < filler.length && tracks.length < STATION_LENGTH; i++) {
      const song = filler[(start + i) % filler.length];
      if (!seen.has(song)) {
        seen.add(song);
        tracks.push(song);
      }
    }
  }
  return tracks;
}

function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function groupCustom(index: CatalogIndex): { offsets: Uint32Array; targets: Uint32Array } {
  const e = index.customStationTracks;
  const order = [...Array(e.count).keys()].sort((a, b) => e.owners[a] - e.owners[b] || e.positions[a] - e.positions[b] || a - b);
  const offsets = new Uint32Array(index.stations.count + 1);
  for (const i of order) offsets[e.owners[i] + 1]++;
  for (let s = 0; s < index.stations.count; s++) offsets[s + 1] += offsets[s];
  return { offsets, targets: Uint32Array.from(order.map((i) => e.targets[i])) };
}
