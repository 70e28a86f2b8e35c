import { commaList, type Query } from '../query.js';
import {
  includableOf,
  INCLUDED_DEFAULT,
  PAGE_DEFAULT,
  PAGE_MAX,
  SORT_VALUES,
  MINIMAL_VIEW_TYPES,
  type EndpointSpec,
  type OmRelation,
  type OmRenderSpec,
  type OmType,
} from '../../interfaces/openmusic/spec.js';

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
      if (includable.includes(value)) spec.buckets ? buckets.add(value) : include.add(value as OmRelation);
      else if (value.includes('.'))
        q.problem('include', value, `includes are one level deep here; ${value} is not (valid: ${includable.join(', ') || 'none'})`);
      else q.problem('include', value, `include must list ${includable.length > 0 ? `values from ${includable.join(', ')}` : 'nothing on this endpoint'}`);
    }
  }
  const minimal = new Set<OmType>();
  const view = q.get('view');
  if (view !== undefined) {
    if (view === 'minimal') for (const t of MINIMAL_VIEW_TYPES) minimal.add(t);
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
      q.problem(name, q.first(name) ?? null, `${name} is not a parameter of this endpoint${accepted.length > 0 ? ` (it takes ${accepted.join(', ')})` : ''}`);
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
