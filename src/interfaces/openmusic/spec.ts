import type { ResourceType } from '../../catalog/catalog.js';

// What an interface-2 request may ask for, endpoint by endpoint, and how a resource is rendered:
// the contract between the server's request parsing and the renderer (render.ts), which the
// compiler also uses to write the default views. No parsing here and no HTTP: those stay in the server.

/** Interface-2 type names (plural) and the snapshot's. */
export type OmType = 'songs' | 'albums' | 'artists' | 'playlists' | 'stations';
export const OUR_TYPE: Record<OmType, ResourceType> = { songs: 'song', albums: 'album', artists: 'artist', playlists: 'playlist', stations: 'station' };
/** The snapshot's type names -> interface 2's, for the types both list and search. */
export const OM_TYPE = { song: 'songs', album: 'albums', artist: 'artists', playlist: 'playlists' } as const satisfies Record<
  Exclude<ResourceType, 'station'>,
  OmType
>;

/** A relationship as interface 2 names it. */
export type OmRelation = 'albums' | 'artists' | 'songs' | 'tracks' | 'lyrics';

/** The relationships of each type, with the resource type they lead to (lyrics: an object). */
export const OM_RELATIONS: Record<OmType, Partial<Record<OmRelation, OmType | null>>> = {
  songs: { albums: 'albums', artists: 'artists', lyrics: null },
  albums: { tracks: 'songs', artists: 'artists' },
  artists: { albums: 'albums', songs: 'songs' },
  playlists: { tracks: 'songs' },
  stations: { tracks: 'songs' },
};

/** Interface 2's relationship name -> the snapshot's (RELATIONS in catalog.ts). */
export const OUR_RELATION: Record<string, string> = { albums: 'albums', artists: 'artists', tracks: 'tracks', songs: 'tracks' };

export const PAGE_DEFAULT = 25;
export const PAGE_MAX = 25;
export const INCLUDED_DEFAULT = 25;
/** The types `view=minimal` shows without attributes. */
export const MINIMAL_VIEW_TYPES: readonly OmType[] = ['songs', 'albums', 'artists', 'playlists', 'stations'];
export const LIMIT_KEYS = ['albums', 'artists', 'songs', 'tracks'] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** Interface-2 sort values -> the snapshot's precomputed orders. */
export const SORT_VALUES: Record<string, string> = {
  name: 'name',
  '-name': '-name',
  date_released: 'releaseDate',
  '-date_released': '-releaseDate',
  date_added: 'dateAdded',
  '-date_added': '-dateAdded',
};
export const DATED_SORTS = Object.keys(SORT_VALUES);
export const UNDATED_SORTS = ['name', '-name', 'date_added', '-date_added'];

/** What one endpoint accepts, after the reference document's parameter lists. */
export interface EndpointSpec {
  /** The type of the resources the endpoint returns. */
  readonly type: OmType;
  /** `view[...]` types accepted. */
  readonly views: readonly OmType[];
  /** `limit[...]` keys accepted; they are also the relationships `include` accepts. */
  readonly limits: readonly LimitKey[];
  /** `include=lyrics` too (song endpoints). */
  readonly lyrics?: boolean;
  /** A page (`limit`, `offset`). */
  readonly paged?: boolean;
  /** Accepted `sort` values (interface-2 spelling); absent: no sort parameter. */
  readonly sorts?: readonly string[];
  /** `filter[genres]`. */
  readonly genres?: boolean;
  /** Search: `include` names result buckets from these instead of relationships. */
  readonly buckets?: readonly string[];
}

/** How resources are rendered: includes, their sizes, minimal views, language. */
export interface OmRenderSpec {
  readonly include: ReadonlySet<OmRelation>;
  readonly limits: ReadonlyMap<string, number>;
  /** Types shown minimal (without `attributes`). */
  readonly minimal: ReadonlySet<OmType>;
  readonly lang: string;
}

/** What `include` accepts on an endpoint: its search buckets, or the relationships it has a `limit[...]` for (and lyrics). */
export function includableOf(spec: EndpointSpec): readonly string[] {
  if (spec.buckets) return spec.buckets;
  return [...spec.limits.filter((k) => k in OM_RELATIONS[spec.type]), ...(spec.lyrics ? ['lyrics'] : [])];
}
