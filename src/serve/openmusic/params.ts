import type { ResourceType } from '../../catalog/catalog.js';
import { commaList, type Query } from '../query.js';

/** Interface-2 type names (plural) and the snapshot's. */
export type OmType = 'songs' | 'albums' | 'artists' | 'playlists' | 'stations';
export const OUR_TYPE: Record<OmType, ResourceType> = { songs: 'song', albums: 'album', artists: 'artist', playlists: 'playlist', stations: 'station' };
/** The snapshot's type names -> interface 2's, for the types both list and search. */
export const OM_TYPE = { song: 'songs', album: 'albums', artist: 'artists', playlist: 'playlists' } as const satisfies Record<Exclude<ResourceType, 'station'>, OmType>;

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
const VIEW_TYPES: readonly OmType[] = ['songs', 'albums', 'artists', 'playlists', 'stations'];
const LIMIT_KEYS = ['albums', 'artists', 'songs', 'tracks'] as const;
type LimitKey = (typeof LIMIT_KEYS)[number];

/** Interface-2 sort values -> the snapshot's precomputed orders. */
const SORT_VALUES: Record<string, string> = {
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

export interface OmRequest {
  readonly render: OmRenderSpec;
  readonly limit: number;
  readonly offset: number;
  /** The snapshot order to sort by, or undefined for the endpoint's default. */
  readonly sort: string | undefined;
  /** Normalised genre names, or null without a filter. */
  readonly genres: string[] | null;
  /** Search buckets asked for (`include` on /search); empty elsewhere. */
  readonly buckets: ReadonlySet<string>;
}

/** What `include` accepts on an endpoint: its search buckets, or the relationships it has a `limit[...]` for (and lyrics). */
export function includableOf(spec: EndpointSpec): readonly string[] {
  if (spec.buckets) return spec.buckets;
  return [...spec.limits.filter((k) => k in OM_RELATIONS[spec.type]), ...(spec.lyrics ? ['lyrics'] : [])];
}

export const genreKey = (name: string): string => name.normalize('NFKC').toLowerCase();

/**
 * Parses and validates an interface-2 query for an endpoint; every problem is collected (the
 * caller's `query.check()` answers one 400 naming each). Bracketed parameters the endpoint does
 * not list (`view[...]`, `limit[...]`, `filter[...]`) are problems too, so a typo never passes
 * silently.
 */
export function parseOmRequest(q: Query, spec: EndpointSpec): OmRequest {
  const lang = q.get('lang')?.trim() || 'en-US';
  const include = new Set<OmRelation>();
  const buckets = new Set<string>();
  const includable = includableOf(spec);
  const rawInclude = q.get('include');
  if (rawInclude !== undefined) {
    for (const value of commaList(rawInclude)) {
      if (includable.includes(value)) (spec.buckets ? buckets.add(value) : include.add(value as OmRelation));
      else if (value.includes('.')) q.problem('include', value, `includes are one level deep here; ${value} is not (valid: ${includable.join(', ') || 'none'})`);
      else q.problem('include', value, `include must list ${includable.length > 0 ? `values from ${includable.join(', ')}` : 'nothing on this endpoint'}`);
    }
  }
  const minimal = new Set<OmType>();
  const view = q.get('view');
  if (view !== undefined) {
    if (view === 'minimal') for (const t of VIEW_TYPES) minimal.add(t);
    else q.problem('view', view, 'view must be minimal');
  }
  const limits = new Map<string, number>();
  const page = { limit: PAGE_DEFAULT, offset: 0 };
  for (const name of q.names()) {
    const bracket = /^([a-z_]+)\[([^\]]*)\]$/.exec(name);
    if (!bracket) continue;
    const [, family, key] = bracket;
    if (family === 'view' && (spec.views as readonly string[]).includes(key)) {
      const value = q.get(name);
      if (value === 'minimal') minimal.add(key as OmType);
      else q.problem(name, value, `${name} must be minimal`);
    } else if (family === 'limit' && (spec.limits as readonly string[]).includes(key)) {
      const value = q.int(name, 1, PAGE_MAX, INCLUDED_DEFAULT);
      limits.set(key, value);
    } else if (!(family === 'filter' && key === 'genres' && spec.genres)) {
      const accepted = [...spec.views.map((t) => `view[${t}]`), ...spec.limits.map((k) => `limit[${k}]`), ...(spec.genres ? ['filter[genres]'] : [])];
      q.problem(name, q.params.get(name), `${name} is not a parameter of this endpoint${accepted.length > 0 ? ` (it takes ${accepted.join(', ')})` : ''}`);
    }
  }
  if (spec.paged) {
    page.limit = q.int('limit', 1, PAGE_MAX, PAGE_DEFAULT);
    page.offset = q.int('offset', 0, Number.MAX_SAFE_INTEGER, 0);
  }
  let sort: string | undefined;
  const rawSort = q.get('sort');
  if (rawSort !== undefined) {
    if (spec.sorts?.includes(rawSort)) sort = SORT_VALUES[rawSort];
    else q.problem('sort', rawSort, spec.sorts ? `sort must be one of ${spec.sorts.join(', ')}` : 'this endpoint takes no sort');
  }
  let genres: string[] | null = null;
  if (spec.genres) {
    const raw = q.get('filter[genres]');
    if (raw !== undefined) {
      genres = commaList(raw).map(genreKey);
      if (genres.length === 0) q.problem('filter[genres]', raw, 'filter[genres] must name one or more genres');
    }
  }
  return { render: { include, limits, minimal, lang }, limit: page.limit, offset: page.offset, sort, genres, buckets };
}
