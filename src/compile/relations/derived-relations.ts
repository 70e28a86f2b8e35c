import type { MemoryBudget } from '../memory-budget.js';
import type { EntityOrderFiles } from '../orders-build/index.js';
import { ListColumnWriter, mapU32Column } from '../spill/columns.js';
import type { SpillDir } from '../spill/spill-dir.js';
import type { EntityColumns } from '../validate/entity-files.js';
import { openAdjacency, targetsOf, type AdjacencyArrays, type AdjacencyFiles } from './adjacency-files.js';
import { groupByTargetRank } from './group-edges.js';
import type { RawRelations } from './raw-relations.js';
import type { SongInheritance } from './song-inheritance.js';

/** An entity's orders over their mapped files. */
export interface EntityOrders {
  readonly idRank: Uint32Array;
  readonly orders: ReadonlyMap<string, Uint32Array>;
  readonly ranks: ReadonlyMap<string, Uint32Array>;
}

export function mapOrders(files: EntityOrderFiles): EntityOrders {
  const map = (m: Map<string, string>) => new Map([...m].map(([name, path]) => [name, mapU32Column(path)]));
  return { idRank: mapU32Column(files.idRank), orders: map(files.orders), ranks: map(files.ranks) };
}

export interface DerivedRelations {
  /** artist -> albums, newest release first. */
  readonly artistAlbums: AdjacencyFiles;
  /** artist -> songs by name. */
  readonly artistSongs: AdjacencyFiles;
  /** genre -> songs by popularity. */
  readonly genreSongs: AdjacencyFiles;
  /** song -> the playlists it is on, each once, most popular first. */
  readonly songPlaylists: AdjacencyFiles;
  /** List column by artist: own genres, or the three most frequent of their songs'. */
  readonly artistGenres: string;
}

/** Relations that reverse others, ordered by an order of their targets, and artists' genres. */
export function deriveRelations(
  raw: RawRelations,
  songs: EntityOrders,
  albums: EntityOrders,
  playlists: EntityOrders,
  artists: EntityColumns,
  genreCount: number,
  songCount: number,
  inherit: SongInheritance,
  spill: SpillDir,
  budget: MemoryBudget,
): DerivedRelations {
  const bytes = budget.sorterBytes(1);
  const reverse = (adj: AdjacencyArrays) => (emit: (owner: number, target: number) => void) => {
    const sources = adj.offsets.length - 1;
    for (let s = 0; s < sources; s++) for (let k = adj.offsets[s]; k < adj.offsets[s + 1]; k++) emit(adj.targets[k], s);
  };
  const order = (o: EntityOrders, name: string) => [o.ranks.get(name)!, o.orders.get(name)!] as const;

  const artistAlbums = groupByTargetRank(
    spill,
    'artist.albums',
    artists.count,
    reverse(openAdjacency(raw.albumArtists)),
    ...order(albums, '-releaseDate'),
    bytes,
  );
  const artistSongs = groupByTargetRank(spill, 'artist.songs', artists.count, reverse(openAdjacency(raw.songArtists)), ...order(songs, 'name'), bytes);
  const genreSongs = groupByTargetRank(
    spill,
    'genre.songs',
    genreCount,
    (emit) => {
      for (let s = 0; s < songCount; s++) for (const g of inherit.genres(s)) emit(g, s);
    },
    ...order(songs, 'popularity'),
    bytes,
  );
  const songPlaylists = groupByTargetRank(
    spill,
    'song.playlists',
    songCount,
    (emit) => {
      const tracks = openAdjacency(raw.playlistTracks);
      const seen = new Set<number>();
      for (let p = 0; p < tracks.offsets.length - 1; p++) {
        seen.clear();
        for (let k = tracks.offsets[p]; k < tracks.offsets[p + 1]; k++) {
          const song = tracks.targets[k];
          if (!seen.has(song)) emit(song, p);
          seen.add(song);
        }
      }
    },
    ...order(playlists, 'popularity'),
    bytes,
  );
  return { artistAlbums, artistSongs, genreSongs, songPlaylists, artistGenres: artistGenres(spill, artists, openAdjacency(artistSongs), inherit) };
}

/** An artist without genres takes the three most frequent genres of their songs (ties: lower genre id). */
function artistGenres(spill: SpillDir, artists: EntityColumns, artistSongs: AdjacencyArrays, inherit: SongInheritance): string {
  const out = new ListColumnWriter(spill.file('artists.genres-derived'));
  const counts = new Map<number, number>();
  for (let a = 0; a < artists.count; a++) {
    const own = artists.genres.get(a);
    if (own.length > 0) {
      out.push(own);
      continue;
    }
    counts.clear();
    for (const s of targetsOf(artistSongs, a)) for (const g of inherit.genres(s)) counts.set(g, (counts.get(g) ?? 0) + 1);
    out.push(
      counts.size === 0
        ? undefined
        : [...counts.entries()]
            .sort((x, y) => y[1] - x[1] || x[0] - y[0])
            .slice(0, 3)
            .map(([g]) => g),
    );
  }
  out.finish();
  return out.path;
}
