import type { SpillDir } from '../spill/spill-dir.js';
import type { EntityColumns } from '../validate/entity-files.js';
import type { StationSeed } from '../../catalog/records.js';
import { AdjacencyWriter, openAdjacency, targetsOf, type AdjacencyFiles } from './adjacency-files.js';
import type { EntityOrders } from './derived-relations.js';
import type { ListColumn } from '../spill/columns.js';

import { fill, POPULAR_STATION_LENGTH, SEED_SHARE } from '../../catalog/station-rules.js';

/**
 * Every station, numbered: the custom ones (stations.csv order), `popular`, one per genre, one
 * per artist, one per album. Names and ids are worked out from the entities on demand; the
 * tracks are an adjacency on disk.
 */
export class StationPlan {
  readonly popular: number;
  readonly firstGenre: number;
  readonly firstArtist: number;
  readonly firstAlbum: number;
  readonly count: number;
  private readonly slugs: string[];

  constructor(
    private readonly custom: EntityColumns,
    private readonly artists: EntityColumns,
    private readonly albums: EntityColumns,
    private readonly genreNames: readonly string[],
    readonly tracks: AdjacencyFiles,
  ) {
    this.popular = custom.count;
    this.firstGenre = this.popular + 1;
    this.firstArtist = this.firstGenre + genreNames.length;
    this.firstAlbum = this.firstArtist + artists.count;
    this.count = this.firstAlbum + albums.count;
    this.slugs = genreSlugs(genreNames);
  }

  genreStation(genre: number): number {
    return this.firstGenre + genre;
  }

  id(st: number): string {
    if (st < this.popular) return this.custom.ids.get(st);
    if (st === this.popular) return 'popular';
    if (st < this.firstArtist) return `genre-${this.slugs[st - this.firstGenre]}`;
    if (st < this.firstAlbum) return `artist-${this.artists.ids.get(st - this.firstArtist)}`;
    return `album-${this.albums.ids.get(st - this.firstAlbum)}`;
  }

  name(st: number): string {
    if (st < this.popular) return this.custom.names.get(st);
    if (st === this.popular) return 'Popular';
    if (st < this.firstArtist) return this.genreNames[st - this.firstGenre];
    if (st < this.firstAlbum) return this.artists.names.get(st - this.firstArtist);
    return this.albums.names.get(st - this.firstAlbum);
  }

  seed(st: number): StationSeed {
    if (st < this.popular) return { kind: 'custom' };
    if (st === this.popular) return { kind: 'popular' };
    if (st < this.firstArtist) return { kind: 'genre', name: this.genreNames[st - this.firstGenre] };
    if (st < this.firstAlbum) return { kind: 'resource', type: 'artist', id: this.artists.ids.get(st - this.firstArtist) };
    return { kind: 'resource', type: 'album', id: this.albums.ids.get(st - this.firstAlbum) };
  }
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

/** Unique slugs in genre order (a repeated slug gets -2, -3, ...). */
function genreSlugs(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    let slug = genreSlug(name);
    for (let n = 2; used.has(slug); n++) slug = `${genreSlug(name)}-${n}`;
    used.add(slug);
    return slug;
  });
}

export interface StationInputs {
  readonly custom: EntityColumns;
  readonly artists: EntityColumns;
  readonly albums: EntityColumns;
  readonly genreNames: readonly string[];
  readonly customTracks: AdjacencyFiles;
  readonly genreSongs: AdjacencyFiles;
  readonly artistSongs: AdjacencyFiles;
  readonly albumTracks: AdjacencyFiles;
  readonly albumArtists: AdjacencyFiles;
  readonly artistGenres: ListColumn;
  readonly songs: EntityOrders;
}

/**
 * Computes every station's tracks at compile time, deterministically: custom stations (raw
 * order), the popular station, one per genre (its songs by popularity), per artist (their most
 * popular songs, then popular songs of their first genre) and per album (its tracks by
 * popularity, then its first artist's station). Artists' stations are written to their own file
 * first, since albums borrow from them.
 */
export function planStations(input: StationInputs, spill: SpillDir): StationPlan {
  const popularity = input.songs.orders.get('popularity')!;
  const popularityRank = input.songs.ranks.get('popularity')!;
  const genreSongs = openAdjacency(input.genreSongs);
  const byPopularity = (list: Uint32Array) => [...list].sort((x, y) => popularityRank[x] - popularityRank[y]).slice(0, SEED_SHARE);

  const artistSongs = openAdjacency(input.artistSongs);
  const mixWriter = new AdjacencyWriter(spill, 'artist.mix', input.artists.count);
  for (let a = 0; a < input.artists.count; a++) {
    const genre = input.artistGenres.get(a)[0];
    const filler = genre === undefined ? new Uint32Array(0) : targetsOf(genreSongs, genre);
    mixWriter.addAll(a, fill(byPopularity(targetsOf(artistSongs, a)), filler, input.artists.ids.get(a)));
  }
  const artistMix = openAdjacency(mixWriter.finish());

  const genres = input.genreNames.length;
  const total = input.custom.count + 1 + genres + input.artists.count + input.albums.count;
  const out = new AdjacencyWriter(spill, 'station.tracks', total);
  let st = 0;
  const custom = openAdjacency(input.customTracks);
  for (let s = 0; s < input.custom.count; s++) out.addAll(st++, targetsOf(custom, s));
  out.addAll(st++, popularity.subarray(0, POPULAR_STATION_LENGTH));
  for (let g = 0; g < genres; g++) out.addAll(st++, targetsOf(genreSongs, g));
  for (let a = 0; a < input.artists.count; a++) out.addAll(st++, targetsOf(artistMix, a));
  const albumTracks = openAdjacency(input.albumTracks);
  const albumArtists = openAdjacency(input.albumArtists);
  for (let al = 0; al < input.albums.count; al++) {
    const firstArtist = targetsOf(albumArtists, al)[0];
    const filler: ArrayLike<number> = firstArtist === undefined ? new Uint32Array(0) : targetsOf(artistMix, firstArtist);
    out.addAll(st++, fill(byPopularity(targetsOf(albumTracks, al)), filler, input.albums.ids.get(al)));
  }
  return new StationPlan(input.custom, input.artists, input.albums, input.genreNames, out.finish());
}
