import { DATED_SORTS, type EndpointSpec, type OmType, UNDATED_SORTS } from './spec.js';

/**
 * Interface 2's endpoints as the reference lists them: for each, the `view[...]` and
 * `limit[...]` parameters it takes, whether it pages, sorts or filters by genre, and its lookup
 * keys. The server's handlers parse requests by these and the OpenAPI document describes them
 * from the same tables, so the two cannot disagree.
 */
export type ListType = Exclude<OmType, 'stations'>;
/** The types `/search/{type}` takes. */
export type OmSearchType = 'song' | 'album' | 'artist' | 'playlist';

/** GET /{type}/{id}: the single-resource parameters of each type. */
export const SINGLE: Record<ListType, EndpointSpec> = {
  songs: { type: 'songs', views: ['songs', 'albums', 'artists'], limits: ['albums', 'artists'], lyrics: true },
  albums: { type: 'albums', views: ['albums', 'artists', 'songs'], limits: ['artists', 'tracks'] },
  artists: { type: 'artists', views: ['artists', 'albums', 'songs'], limits: ['albums', 'songs'] },
  playlists: { type: 'playlists', views: ['playlists', 'songs'], limits: ['tracks'] },
};
export const SORTS: Record<ListType, readonly string[]> = { songs: DATED_SORTS, albums: DATED_SORTS, artists: UNDATED_SORTS, playlists: UNDATED_SORTS };

/** Lookup parameters of each list endpoint. */
export const LOOKUP_KEYS: Record<ListType, readonly string[]> = {
  songs: ['ids', 'omm_ids', 'isrc'],
  albums: ['ids', 'omm_ids', 'upc'],
  artists: ['ids', 'omm_ids'],
  playlists: ['ids'],
};

/** The list endpoints: a page, sort and filter[genres] on top of the single-resource parameters. */
export const LIST = Object.fromEntries(
  (Object.keys(SINGLE) as ListType[]).map((t) => [t, { ...SINGLE[t], paged: true, sorts: SORTS[t], genres: true }]),
) as Record<ListType, EndpointSpec>;

/** Endpoints of related lists, keyed `type:relation`: views, included limits, sort. */
export const RELATED: Record<string, EndpointSpec> = {
  'songs:albums': { type: 'albums', views: ['albums', 'artists'], limits: ['artists'], paged: true },
  'songs:artists': { type: 'artists', views: ['artists', 'albums'], limits: ['albums'], paged: true },
  'albums:tracks': { type: 'songs', views: ['songs', 'albums', 'artists'], limits: ['albums', 'artists'], lyrics: true, paged: true },
  'albums:artists': { type: 'artists', views: ['artists', 'albums'], limits: ['albums'], paged: true },
  'artists:albums': { type: 'albums', views: ['albums', 'artists'], limits: ['artists'], paged: true, sorts: DATED_SORTS },
  'artists:songs': { type: 'songs', views: ['songs', 'albums', 'artists'], limits: ['albums', 'artists'], lyrics: true, paged: true, sorts: DATED_SORTS },
  'playlists:tracks': { type: 'songs', views: ['songs', 'albums', 'artists'], limits: ['albums', 'artists'], lyrics: true, paged: true },
};

/** The buckets GET /search may `include`, in the order it writes them, and its default ones. */
export const BUCKETS = ['top', 'songs', 'artists', 'albums', 'stations', 'playlists'] as const;
export const DEFAULT_BUCKETS = ['top', 'songs', 'artists', 'albums'];
/** Resources per bucket unless `limit[<bucket>]` says otherwise (songs, albums, artists). */
export const BUCKET_DEFAULT = 10;

/** GET /search. */
export const SEARCH: EndpointSpec = {
  type: 'songs',
  views: ['songs', 'albums', 'artists', 'playlists', 'stations'],
  limits: ['songs', 'albums', 'artists', 'tracks'],
  buckets: BUCKETS,
};

/** GET /search/{type}. */
export const TYPED: Record<OmSearchType, EndpointSpec> = {
  song: { type: 'songs', views: ['songs', 'albums', 'artists'], limits: ['albums', 'artists'], lyrics: true, paged: true, genres: true },
  album: { type: 'albums', views: ['albums', 'artists', 'songs'], limits: ['artists', 'tracks'], paged: true, genres: true },
  artist: { type: 'artists', views: ['artists', 'albums', 'songs'], limits: ['albums', 'songs'], paged: true, genres: true },
  playlist: { type: 'playlists', views: ['playlists', 'songs'], limits: ['tracks'], paged: true, genres: true },
};

/** Interface 2 serves artist, genre and popular stations (the standard's three seeds): a station, and its tracks. */
export const STATION: EndpointSpec = { type: 'stations', views: ['stations', 'songs'], limits: ['tracks'] };
export const TRACKS: EndpointSpec = {
  type: 'songs',
  views: ['songs', 'albums', 'artists'],
  limits: ['albums', 'artists'],
  lyrics: true,
  paged: true,
  sorts: DATED_SORTS,
};
