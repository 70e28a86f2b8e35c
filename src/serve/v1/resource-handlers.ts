import { notFound } from '../api-error.js';
import { RELATION_TARGET, RELATIONS, type Catalog, type ResourceType } from '../../catalog/catalog.js';
import type { Handler, RequestContext } from '../context.js';
import { parseFlatSpec, parsePage, parseRenderSpec, type Page } from './params.js';
import { type RenderSpec } from '../../interfaces/v1/spec.js';
import { DEFAULT_RELATION_SORT, sortByRank } from '../../catalog/relation-order.js';
import { V1Renderer } from '../../interfaces/v1/render.js';
import { exactlyOne, lookupValues, resolveIds, resolveIsrcs, resolveUpcs } from './lookup-values.js';
import { sliceOrdinals } from '../../catalog/ordinal-slice.js';

type ListType = 'song' | 'album' | 'artist' | 'playlist';

/** The `fields[...]` types each endpoint family accepts (document 1). */
export const FIELD_TYPES: Record<ListType, readonly ResourceType[]> = {
  song: ['song', 'album', 'artist'],
  album: ['album', 'song', 'artist'],
  artist: ['artist', 'song', 'album'],
  playlist: ['playlist', 'song'],
};

/** `{data, meta: {limit, offset, total}}`. */
export function listBody(data: unknown[], limit: number, offset: number, total: number): unknown {
  return { data, meta: { limit, offset, total } };
}

export function mustResolve(cat: Catalog, type: ResourceType, id: string): number {
  const ordinal = cat.resolve(type, id);
  if (ordinal < 0) throw notFound();
  return ordinal;
}

/** GET /{type}s: every resource of a type in a precomputed order, paged. */
export function listAll(type: ListType): Handler {
  return ({ cat, query }) => {
    const spec = parseRenderSpec(query, type, FIELD_TYPES[type]);
    const page = parsePage(query, type, 'name');
    query.check();
    const order = cat.order(type, page.sort);
    const total = order.length;
    const ordinals = order.slice(page.offset, page.offset + page.limit);
    return listBody(new V1Renderer(cat, spec).list(type, ordinals), page.limit, page.offset, total);
  };
}

/** GET /{type}/{id}. */
export function getOne(type: ListType): Handler {
  return ({ cat, query, params }) => {
    const spec = parseRenderSpec(query, type, FIELD_TYPES[type]);
    query.check();
    return { data: new V1Renderer(cat, spec).resource(type, mustResolve(cat, type, params.id)) };
  };
}

/** GET /{type}s/lookup: `ids` (all types), `isrc` (songs), `upc` (albums); request order. */
export function lookup(type: ListType): Handler {
  const keys = type === 'song' ? ['ids', 'isrc'] : type === 'album' ? ['ids', 'upc'] : ['ids'];
  const message = keys.length === 1 ? 'ids is required' : `Provide exactly one of ${keys.join(' or ')}`;
  return ({ cat, query }) => {
    const spec = parseRenderSpec(query, type, FIELD_TYPES[type]);
    query.check();
    const by = exactlyOne(query, keys, message);
    const values = lookupValues(query, by);
    const ordinals = by === 'isrc' ? resolveIsrcs(cat, values) : by === 'upc' ? resolveUpcs(cat, values) : resolveIds(cat, type, values);
    return { data: new V1Renderer(cat, spec).list(type, ordinals) };
  };
}

/**
 * GET /{type}/{id}/rel/{rel} (and /station/{id}/tracks through `relatedList`): the related
 * resources, paged, in the default order or by `sort`.
 */
export function relatedOf(type: ListType, rel: string): Handler {
  const targetType = RELATION_TARGET[rel];
  const adjacency = (RELATIONS[type] as Record<string, string>)[rel];
  return (ctx) => {
    const parsed = parseRelatedQuery(ctx, targetType);
    const targets = ctx.cat.relation(adjacency).targetsOf(mustResolve(ctx.cat, type, ctx.params.id));
    return relatedList(ctx, targetType, targets, DEFAULT_RELATION_SORT[`${type}:${rel}`], parsed);
  };
}

export interface RelatedQuery {
  readonly spec: RenderSpec;
  readonly page: Page;
}

/** Parses the query of a related list (fields of the target type, lang, page) before lookups. */
export function parseRelatedQuery(ctx: RequestContext, targetType: ResourceType): RelatedQuery {
  const spec = parseFlatSpec(ctx.query, [targetType]);
  const page = parsePage(ctx.query, targetType, '');
  ctx.query.check();
  return { spec, page };
}

export function relatedList(
  ctx: RequestContext,
  targetType: ResourceType,
  targets: ArrayLike<number>,
  defaultSort: string | undefined,
  parsed: RelatedQuery,
): unknown {
  const { spec, page } = parsed;
  const sort = page.sort === '' ? defaultSort : page.sort;
  const ordered = sortByRank(ctx.cat, targetType, targets, sort);
  const shown = sliceOrdinals(ordered, page.offset, page.offset + page.limit);
  return listBody(new V1Renderer(ctx.cat, spec).list(targetType, shown, null), page.limit, page.offset, targets.length);
}
