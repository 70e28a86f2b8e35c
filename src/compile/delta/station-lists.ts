import type { StationRecord, StationSeed } from '../../catalog/records.js';
import { fill, SEED_SHARE } from '../../catalog/station-rules.js';
import { sameOrdinals } from '../../index-format/u32.js';
import type { DeltaNext } from './delta-next.js';
import type { GenreLists } from './genre-lists.js';

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
  /** Each song's place in the popularity order once the delta is in (made on first use: a pass over the order). */
  readonly rank: () => Uint32Array;
  /** Whether a resource is served once the delta is in. */
  readonly served: (type: 'song' | 'album' | 'artist', g: number) => boolean;
}

/**
 * The stations a delta holds or takes out. Over segments a derived station's tracks are made
 * again as it is served (live-stations.ts), by the compile's rules (station-rules.ts), so a
 * derived station is held only when it is new (a new genre, artist or album) or its name changes
 * (its artist or album renamed), with the tracks those rules give now; custom stations are held
 * when they lose songs the delta takes out. The stations of genres, artists and albums taken out
 * are taken out. New stations are numbered after every station there is: genres', then artists',
 * then albums' (the full compile's order). Work in proportion to the delta.
 */
export function stationLists(inputs: StationInputs): StationLists {
  const { next, genres, served } = inputs;
  const { prev } = next;
  const stations = prev.records('station');
  const held: NextStation[] = [];
  const removed: number[] = [];
  let fresh = stations.count;
  const freshIds = new Map<string, number>();
  const consider: Consider = (id, name, seed, tracksOf, custom) => {
    let g = prev.resolve('station', id);
    // A derived station in service under the same name is made as it is served: nothing to hold.
    if (g >= 0 && !custom && stations.get<StationRecord>(g).name === name) return;
    const tracks = tracksOf();
    if (g >= 0 && custom && sameOrdinals(tracks, prev.relation('station.tracks').targetsOf(g))) return;
    if (g < 0) freshIds.set(id, (g = fresh++));
    const record: StationRecord = custom ?? { id, name, description: null, artworkUrl: null, seed, trackCount: 0 };
    held.push({ g, record: { ...record, trackCount: tracks.length }, tracks });
  };
  const custom = prev.counts.customStations ?? 0;
  for (let st = 0; st < custom; st++) {
    const record = stations.get<StationRecord>(st);
    consider(record.id, record.name, record.seed, () => Array.from(prev.relation('station.tracks').targetsOf(st)).filter((s) => served('song', s)), record);
  }
  for (const [g, genre] of genres.changed)
    if (g >= prev.records('genre').count)
      consider(genre.record.stationId, genre.record.name, { kind: 'genre', name: genre.record.name }, () => [...genre.songs], null);
  for (const g of genres.removed) stationOut(next, prev.records('genre').get<{ stationId: string }>(g).stationId, removed);
  const mix = artistMix(inputs);
  for (const a of touched(next, 'artist')) {
    if (!served('artist', a)) stationOut(next, `artist-${next.prev.records('artist').get<{ id: string }>(a).id}`, removed);
    else {
      const record = next.record<{ id: string; name: string }>('artist', a);
      consider(`artist-${record.id}`, record.name, { kind: 'resource', type: 'artist', id: record.id }, () => mix(a), null);
    }
  }
  for (const al of touched(next, 'album')) {
    if (!served('album', al)) stationOut(next, `album-${next.prev.records('album').get<{ id: string }>(al).id}`, removed);
    else {
      const record = next.record<{ id: string; name: string }>('album', al);
      const tracks = () => {
        const firstArtist = next.list('album.artists', al)[0];
        return fill(mostPopular(inputs, next.list('album.tracks', al)), firstArtist === undefined ? [] : mix(firstArtist), record.id);
      };
      consider(`album-${record.id}`, record.name, { kind: 'resource', type: 'album', id: record.id }, tracks, null);
    }
  }
  held.sort((a, b) => a.g - b.g);
  removed.sort((a, b) => a - b);
  return { held, removed, ordinalOf: (id) => freshIds.get(id) ?? prev.resolve('station', id) };
}

type Consider = (id: string, name: string, seed: StationSeed, tracks: () => number[], custom: StationRecord | null) => void;

/** The artists or albums the delta compiled (candidates, new ones among them) and those it takes out, global ascending. */
function touched(next: DeltaNext, type: 'artist' | 'album'): number[] {
  const numbering = next.numbering[type];
  const out = new Set<number>([...numbering.candidates.map((m) => numbering.toGlobal[m]), ...numbering.removed]);
  return [...out].sort((a, b) => a - b);
}

/** An artist's mix (their station's tracks): their most popular songs, then their first genre's, as the compile makes it. */
function artistMix(inputs: StationInputs): (artist: number) => number[] {
  const { next, genres } = inputs;
  const mixes = new Map<number, number[]>();
  return (a) => {
    let mix = mixes.get(a);
    if (!mix) {
      const record = next.record<{ id: string; genres: string[] }>('artist', a);
      const genre = record.genres.length > 0 ? genres.ordinalOf(record.genres[0]) : -1;
      const filler = genre < 0 ? [] : genres.songs(genre);
      mixes.set(a, (mix = fill(mostPopular(inputs, next.list('artist.songs', a)), filler, record.id)));
    }
    return mix;
  };
}

/** A station the snapshot in service serves, taken out with its genre, artist or album. */
function stationOut(next: DeltaNext, id: string, removed: number[]): void {
  const g = next.prev.resolve('station', id);
  if (g >= 0) removed.push(g);
}

function mostPopular(inputs: StationInputs, songs: ArrayLike<number>): number[] {
  const rank = inputs.rank();
  return Array.from(songs)
    .sort((x, y) => rank[x] - rank[y])
    .slice(0, SEED_SHARE);
}
