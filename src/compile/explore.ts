import type { ExploreGroup } from '../catalog/explore-feed.js';
import type { CatalogIndex } from './catalog-index.js';
import type { DerivedCatalog } from './derive.js';
import type { StationPlan } from './stations.js';

/** Resources kept per derived group: enough for a page of the largest limit. */
export const EXPLORE_GROUP_SIZE = 100;

/**
 * The explore feed: the raw groups when explore_groups.csv has any, else derived groups
 * (new releases, popular songs, top artists, playlists, genre stations). Empty groups are left out.
 */
export function planExplore(index: CatalogIndex, derived: DerivedCatalog, stations: StationPlan): ExploreGroup[] {
  if (index.exploreGroups.length > 0) {
    return [...index.exploreGroups]
      .map((g, row) => ({ g, row }))
      .sort((a, b) => a.g.position - b.g.position || a.row - b.row)
      .map(({ g }) => ({
        id: g.id,
        title: g.title,
        type: g.type,
        ordinals: g.items
          .map((item, row) => ({ item, row }))
          .sort((a, b) => a.item.position - b.item.position || a.row - b.row)
          .map(({ item }) => item.ordinal),
      }));
  }
  const top = (order: Uint32Array | undefined) => [...(order ?? new Uint32Array(0)).subarray(0, EXPLORE_GROUP_SIZE)];
  const genreSongs = derived.relations.get('genre.songs')!;
  const genresBySize = index.genreNames
    .map((_, g) => g)
    .sort((a, b) => genreSongs.offsets[b + 1] - genreSongs.offsets[b] - (genreSongs.offsets[a + 1] - genreSongs.offsets[a]) || a - b);
  const releasedAlbums = top(derived.albums.orders.get('-releaseDate')).filter((al) => !Number.isNaN(index.albums.releaseDate[al]));
  const groups: ExploreGroup[] = [
    { id: 'new-releases', title: 'New Releases', type: 'album', ordinals: releasedAlbums },
    { id: 'popular-songs', title: 'Popular Songs', type: 'song', ordinals: top(derived.songs.orders.get('popularity')) },
    { id: 'top-artists', title: 'Top Artists', type: 'artist', ordinals: top(derived.artists.orders.get('popularity')) },
    { id: 'playlists', title: 'Playlists', type: 'playlist', ordinals: top(derived.playlists.orders.get('popularity')) },
    {
      id: 'genre-stations',
      title: 'Genre Stations',
      type: 'station',
      ordinals: genresBySize.slice(0, EXPLORE_GROUP_SIZE).map((g) => stations.genreStation[g]),
    },
  ];
  return groups.filter((g) => g.ordinals.length > 0);
}
