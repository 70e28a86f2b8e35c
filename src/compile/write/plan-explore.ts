import type { ExploreGroup } from '../../catalog/explore-feed.js';
import type { AdjacencyArrays } from '../relations/adjacency-files.js';
import type { EntityOrders } from '../relations/derived-relations.js';
import type { StationPlan } from '../relations/station-plan.js';
import type { CheckedRefs } from '../validate/check-refs.js';

/** Resources kept per derived group: enough for a page of the largest limit. */
export const EXPLORE_GROUP_SIZE = 100;

export interface ExploreInputs {
  readonly raw: CheckedRefs['explore'];
  readonly orders: { readonly songs: EntityOrders; readonly albums: EntityOrders; readonly artists: EntityOrders; readonly playlists: EntityOrders };
  readonly albumReleaseKey: Float64Array;
  readonly genreSongs: AdjacencyArrays;
  readonly genreCount: number;
  readonly stations: StationPlan;
}

/**
 * The explore feed: the raw groups when explore_groups.csv has any (by position, then row), else
 * derived groups (new releases, popular songs, top artists, playlists, genre stations). Empty
 * groups are left out.
 */
export function planExplore({ raw, orders, albumReleaseKey, genreSongs, genreCount, stations }: ExploreInputs): ExploreGroup[] {
  const NO_POSITION = Number.MAX_SAFE_INTEGER;
  const pos = (p: number) => (Number.isNaN(p) ? NO_POSITION : p);
  if (raw.length > 0) {
    return raw
      .map((g, row) => ({ g, row }))
      .sort((a, b) => pos(a.g.group.position) - pos(b.g.group.position) || a.row - b.row)
      .map(({ g }) => ({
        id: g.group.id,
        title: g.group.title,
        type: g.group.type,
        ordinals: g.items
          .map((item, row) => ({ item, row }))
          .sort((a, b) => pos(a.item.position) - pos(b.item.position) || a.row - b.row)
          .map(({ item }) => item.ordinal),
      }));
  }
  const top = (order: Uint32Array | undefined) => [...(order ?? new Uint32Array(0)).subarray(0, EXPLORE_GROUP_SIZE)];
  const size = (g: number) => genreSongs.offsets[g + 1] - genreSongs.offsets[g];
  const genresBySize = Array.from({ length: genreCount }, (_, g) => g).sort((a, b) => size(b) - size(a) || a - b);
  const releasedAlbums = top(orders.albums.orders.get('-releaseDate')).filter((al) => !Number.isNaN(albumReleaseKey[al]));
  const groups: ExploreGroup[] = [
    { id: 'new-releases', title: 'New Releases', type: 'album', ordinals: releasedAlbums },
    { id: 'popular-songs', title: 'Popular Songs', type: 'song', ordinals: top(orders.songs.orders.get('popularity')) },
    { id: 'top-artists', title: 'Top Artists', type: 'artist', ordinals: top(orders.artists.orders.get('popularity')) },
    { id: 'playlists', title: 'Playlists', type: 'playlist', ordinals: top(orders.playlists.orders.get('popularity')) },
    {
      id: 'genre-stations',
      title: 'Genre Stations',
      type: 'station',
      ordinals: genresBySize.slice(0, EXPLORE_GROUP_SIZE).map((g) => stations.genreStation(g)),
    },
  ];
  return groups.filter((g) => g.ordinals.length > 0);
}
