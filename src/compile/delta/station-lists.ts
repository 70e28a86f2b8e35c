import type { StationRecord, StationSeed } from '../../catalog/records.js';
import { fill, POPULAR_STATION_LENGTH, SEED_SHARE } from '../../catalog/station-rules.js';
import type { DeltaNext } from './delta-next.js';
import type { GenreLists } from './genre-lists.js';
import type { OrdinalColumn } from '../../catalog/live-lists.js';

/** A station as served once the delta is in. */
export interface NextStation {
  readonly g: number;
  readonly record: StationRecord;
  readonly tracks: number[];
}

export interface StationLists {
  /** The stations the delta holds (new, or their record or tracks differ), global ascending. */
  readonly held: NextStation[];
  /** Stations taken out (their artist's or album's), global ascending. */
  readonly removed: number[];
  /** Station id -> global ordinal, for every station once the delta is in. */
  ordinalOf(id: string): number;
}

/** What the stations are made from once the delta is in. */
export interface StationInputs {
  readonly next: DeltaNext;
  readonly genres: GenreLists;
  /** The songs by popularity, and each song's place in that order. */
  readonly popularity: OrdinalColumn;
  readonly rank: Uint32Array;
  /** Whether a resource is served once the delta is in. */
  readonly served: (type: 'song' | 'album' | 'artist', g: number) => boolean;
  readonly sizes: { readonly artist: number; readonly album: number };
}

/**
 * Every station once the delta is in, by the compile's rules (station-rules.ts, as
 * station-plan.ts applies them): custom stations less the songs taken out, the popular station,
 * one per genre (its songs), per artist (their most popular songs, then their first genre's) and
 * per album (its most popular tracks, then its first artist's mix). Each is compared with the
 * station in service; a station whose artist or album the delta takes out is taken out, and the
 * stations of new genres, artists and albums are numbered after every station there is, in that
 * order (the full compile's).
 */
export function stationLists(inputs: StationInputs): StationLists {
  const { next, genres, served } = inputs;
  const { prev } = next;
  const stations = prev.records('station');
  const held: NextStation[] = [];
  const removed: number[] = [];
  let fresh = stations.count;
  const freshIds = new Map<string, number>();
  const consider = (id: string, name: string, seed: StationSeed, tracks: number[], custom: StationRecord | null) => {
    let g = prev.resolve('station', id);
    const record: StationRecord = custom
      ? { ...custom, trackCount: tracks.length }
      : { id, name, description: null, artworkUrl: null, seed, trackCount: tracks.length };
    if (g < 0) {
      freshIds.set(id, (g = fresh++));
      held.push({ g, record, tracks });
      return;
    }
    const before = prev.relation('station.tracks').targetsOf(g);
    const same = before.length === tracks.length && tracks.every((t, i) => t === before[i]) && JSON.stringify(stations.get(g)) === JSON.stringify(record);
    if (!same) held.push({ g, record, tracks });
  };
  const custom = prev.counts.customStations ?? 0;
  for (let st = 0; st < custom; st++) {
    const record = stations.get<StationRecord>(st);
    consider(record.id, record.name, record.seed, Array.from(prev.relation('station.tracks').targetsOf(st)).filter((s) => served('song', s)), record);
  }
  consider('popular', 'Popular', { kind: 'popular' }, Array.from(inputs.popularity.slice(0, POPULAR_STATION_LENGTH)), null);
  for (let g = 0; g < genres.size; g++) {
    const record = genres.changed.get(g)?.record ?? prev.records('genre').get<{ name: string; stationId: string }>(g);
    if (!genres.served(g)) {
      stationOut(next, record.stationId, removed);
      continue;
    }
    if (genres.changed.has(g) || g >= prev.records('genre').count) consider(record.stationId, record.name, { kind: 'genre', name: record.name }, Array.from(genres.songs(g)), null);
  }
  const mixes = artistMixes(inputs, consider, removed);
  albumStations(inputs, mixes, consider, removed);
  held.sort((a, b) => a.g - b.g);
  removed.sort((a, b) => a - b);
  return { held, removed, ordinalOf: (id) => freshIds.get(id) ?? prev.resolve('station', id) };
}

type Consider = (id: string, name: string, seed: StationSeed, tracks: number[], custom: StationRecord | null) => void;

/** Every artist's mix (their station's tracks), each artist's station considered; those of artists taken out are taken out. */
function artistMixes(inputs: StationInputs, consider: Consider, removed: number[]): Map<number, number[]> {
  const { next, genres, served } = inputs;
  const mixes = new Map<number, number[]>();
  for (let a = 0; a < inputs.sizes.artist; a++) {
    if (!served('artist', a)) {
      stationOut(next, `artist-${next.prev.records('artist').get<{ id: string }>(a).id}`, removed);
      continue;
    }
    const record = next.record<{ id: string; name: string; genres: string[] }>('artist', a);
    const genre = record.genres.length > 0 ? genres.ordinalOf(record.genres[0]) : -1;
    const filler = genre < 0 ? [] : genres.songs(genre);
    const mix = fill(mostPopular(inputs, next.list('artist.songs', a)), filler, record.id);
    mixes.set(a, mix);
    consider(`artist-${record.id}`, record.name, { kind: 'resource', type: 'artist', id: record.id }, mix, null);
  }
  return mixes;
}

function albumStations(inputs: StationInputs, mixes: Map<number, number[]>, consider: Consider, removed: number[]): void {
  const { next, served } = inputs;
  for (let al = 0; al < inputs.sizes.album; al++) {
    if (!served('album', al)) {
      stationOut(next, `album-${next.prev.records('album').get<{ id: string }>(al).id}`, removed);
      continue;
    }
    const record = next.record<{ id: string; name: string }>('album', al);
    const firstArtist = next.list('album.artists', al)[0];
    const filler = firstArtist === undefined ? [] : (mixes.get(firstArtist) ?? []);
    consider(`album-${record.id}`, record.name, { kind: 'resource', type: 'album', id: record.id }, fill(mostPopular(inputs, next.list('album.tracks', al)), filler, record.id), null);
  }
}

/** A station the snapshot in service serves, taken out with its artist or album. */
function stationOut(next: DeltaNext, id: string, removed: number[]): void {
  const g = next.prev.resolve('station', id);
  if (g >= 0) removed.push(g);
}

function mostPopular(inputs: StationInputs, songs: ArrayLike<number>): number[] {
  const rank = inputs.rank;
  return Array.from(songs)
    .sort((x, y) => rank[x] - rank[y])
    .slice(0, SEED_SHARE);
}
