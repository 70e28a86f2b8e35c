import type { Catalog } from '../../catalog/catalog.js';
import { exploreGroups, type ExploreGroup } from '../../catalog/explore-feed.js';
import type { OrdinalColumn } from '../../catalog/live-lists.js';
import type { SegmentType } from '../../catalog/segments.js';
import { EXPLORE_GROUP_SIZE } from '../write/plan-explore.js';
import type { GenreLists } from './genre-lists.js';

export interface ExploreInputs {
  readonly prev: Catalog;
  /** Whether explore_groups.csv has rows: the feed is the raw groups, else derived (plan-explore.ts). */
  readonly rawGroups: boolean;
  readonly served: (type: SegmentType, g: number) => boolean;
  readonly order: (type: 'song' | 'album' | 'artist' | 'playlist', sort: string) => OrdinalColumn;
  readonly releaseDate: (album: number) => string | null;
  readonly genres: GenreLists;
  readonly genreStation: (genre: number) => number;
}

/**
 * The explore feed once the delta is in, as a full compile makes it (plan-explore.ts): the raw
 * groups as served, less what the delta takes out (a delivery takes items out with their
 * resources and adds none), or the derived groups made again from the orders once the delta is in.
 */
export function nextExplore(inputs: ExploreInputs): ExploreGroup[] {
  if (inputs.rawGroups) return exploreGroups(inputs.prev).map((g) => ({ ...g, ordinals: g.ordinals.filter((o) => inputs.served(g.type as SegmentType, o)) }));
  const top = (type: 'song' | 'album' | 'artist' | 'playlist', sort: string) => Array.from(inputs.order(type, sort).slice(0, EXPLORE_GROUP_SIZE));
  const { genres } = inputs;
  const size = (g: number) => genres.songs(g).length;
  const bySize = Array.from({ length: genres.size }, (_, g) => g)
    .filter((g) => inputs.served('genre', g))
    .sort((a, b) => size(b) - size(a) || a - b);
  const groups: ExploreGroup[] = [
    { id: 'new-releases', title: 'New Releases', type: 'album', ordinals: top('album', '-releaseDate').filter((al) => inputs.releaseDate(al) !== null) },
    { id: 'popular-songs', title: 'Popular Songs', type: 'song', ordinals: top('song', 'popularity') },
    { id: 'top-artists', title: 'Top Artists', type: 'artist', ordinals: top('artist', 'popularity') },
    { id: 'playlists', title: 'Playlists', type: 'playlist', ordinals: top('playlist', 'popularity') },
    { id: 'genre-stations', title: 'Genre Stations', type: 'station', ordinals: bySize.slice(0, EXPLORE_GROUP_SIZE).map((g) => inputs.genreStation(g)) },
  ];
  return groups.filter((g) => g.ordinals.length > 0);
}
