import { notFound } from '../api-error.js';
import { RELATIONS, type Catalog } from '../../catalog/catalog.js';
import type { Handler, RequestContext } from '../context.js';
import { lyricsFor } from '../../catalog/lyrics.js';
import { DEFAULT_RELATION_SORT, sortByRank } from '../../catalog/relation-order.js';
import { lookupValues, resolveIsrcs, resolveUpcs } from '../v1/lookup-values.js';
import { filteredListPage, genrePredicate, pageOf, type ListPage } from './genre-filter.js';
import { parseOmRequest, type OmRequest } from './params.js';
import { OM_RELATIONS, OUR_RELATION, OUR_TYPE, type OmType } from '../../interfaces/openmusic/spec.js';
import { LIST, LOOKUP_KEYS, type ListType, RELATED, SINGLE } from '../../interfaces/openmusic/endpoints.js';
import { lyricsObject, OmRenderer } from '../../interfaces/openmusic/render.js';

/** `{data, meta: {limit, offset, has_next_page}}`. */
export function listBody(renderer: OmRenderer, type: OmType, page: ListPage, req: OmRequest): unknown {
  return { data: renderer.list(type, page.ordinals), meta: { limit: req.limit, offset: req.offset, has_next_page: page.hasNext } };
}

/**
 * An id as interface 2 clients send it: the local id, a catalog id (`omm:song:...`), or the
 * bare 16 characters of `meta.omm_id`.
 */
export function resolveOm(cat: Catalog, type: OmType, id: string): number {
  const ourType = OUR_TYPE[type];
  const ordinal = cat.resolve(ourType, id);
  return ordinal >= 0 ? ordinal : byBareOmmId(cat, type, id);
}

/** A resource by the bare 16 characters of its `meta.omm_id`; -1 when unknown (playlists and stations have none). */
function byBareOmmId(cat: Catalog, type: OmType, id: string): number {
  const ourType = OUR_TYPE[type];
  if (ourType === 'playlist' || ourType === 'station' || !/^[0-9a-z]{16}$/.test(id)) return -1;
  return cat.keys(`${ourType}.omm`).get(id);
}

function mustResolve(cat: Catalog, type: OmType, id: string): number {
  const ordinal = resolveOm(cat, type, id);
  if (ordinal < 0) throw notFound();
  return ordinal;
}

/** GET /{type}/{id}. */
export function getOne(type: ListType): Handler {
  return ({ cat, query, params }) => {
    const req = parseOmRequest(query, SINGLE[type]);
    query.check();
    return { data: new OmRenderer(cat, req.render).resource(type, mustResolve(cat, type, params.id)) };
  };
}

/**
 * GET /{type}: by `ids`, `omm_ids`, `isrc` or `upc` (at most one; request order, unknown values
 * left out, at most 100), or every resource in `sort` order (default name); `filter[genres]`
 * keeps those with one of the genres; paged.
 */
export function listOrLookup(type: ListType): Handler {
  const spec = LIST[type];
  const keys = LOOKUP_KEYS[type];
  return ({ cat, query }) => {
    const req = parseOmRequest(query, spec);
    const given = keys.filter((k) => query.has(k));
    if (given.length > 1)
      query.problem(
        given.join(','),
        given.map((k) => query.get(k)),
        `Provide at most one of ${keys.join(', ')}`,
      );
    query.check();
    const renderer = new OmRenderer(cat, req.render);
    if (given.length === 0) {
      const sort = req.sort ?? 'name';
      if (req.genres) return listBody(renderer, type, filteredListPage(cat, type, sort, req.genres, req.offset, req.limit), req);
      return listBody(renderer, type, pageOf(cat.order(OUR_TYPE[type] as 'song', sort).slice(req.offset, req.offset + req.limit + 1), 0, req.limit), req);
    }
    const by = given[0];
    const values = lookupValues(query, by);
    let ordinals =
      by === 'isrc'
        ? resolveIsrcs(cat, values)
        : by === 'upc'
          ? resolveUpcs(cat, values)
          : values.map((v) => (by === 'omm_ids' ? resolveOmmId(cat, type, v) : resolveOm(cat, type, v))).filter((o) => o >= 0);
    if (req.genres) ordinals = ordinals.filter(genrePredicate(cat, type, req.genres));
    if (req.sort) ordinals = Array.from(sortByRank(cat, OUR_TYPE[type], ordinals, req.sort));
    return listBody(renderer, type, pageOf(ordinals, req.offset, req.limit), req);
  };
}

/** An `omm_ids` value: a catalog id or a bare omm_id, never a local id. */
function resolveOmmId(cat: Catalog, type: OmType, value: string): number {
  return value.startsWith('omm:') ? cat.resolve(OUR_TYPE[type], value) : byBareOmmId(cat, type, value);
}

/** GET /{type}/{id}/rel/{rel}: the related resources in the default order (or `sort`), paged. */
export function relatedOf(type: ListType, rel: 'albums' | 'artists' | 'tracks' | 'songs'): Handler {
  const spec = RELATED[`${type}:${rel}`];
  const target = OM_RELATIONS[type][rel] as OmType;
  const adjacency = (RELATIONS[OUR_TYPE[type]] as Record<string, string>)[OUR_RELATION[rel]];
  const defaultSort = DEFAULT_RELATION_SORT[`${OUR_TYPE[type]}:${OUR_RELATION[rel]}`];
  return (ctx) => {
    const req = parseOmRequest(ctx.query, spec);
    ctx.query.check();
    const targets = ctx.cat.relation(adjacency).targetsOf(mustResolve(ctx.cat, type, ctx.params.id));
    return relatedBody(ctx, target, targets, req.sort ?? defaultSort, req);
  };
}

export function relatedBody(ctx: RequestContext, target: OmType, targets: ArrayLike<number>, sort: string | undefined, req: OmRequest): unknown {
  const ordered = sortByRank(ctx.cat, OUR_TYPE[target], targets, sort);
  return listBody(new OmRenderer(ctx.cat, req.render), target, pageOf(ordered, req.offset, req.limit), req);
}

/** GET /songs/{id}/rel/lyrics: `{data: {text, language}}` in `lang` (en-US fallback), or 404. */
export const songLyrics: Handler = ({ cat, query, params }) => {
  const lang = query.get('lang')?.trim() || 'en-US';
  query.check();
  const ordinal = mustResolve(cat, 'songs', params.id);
  const lyrics = lyricsFor(cat, ordinal, cat.song(ordinal).lyricsLanguages, lang);
  if (!lyrics) throw notFound('This song has no lyrics');
  return { data: lyricsObject(lyrics) };
};
