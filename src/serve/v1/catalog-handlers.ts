import { badRequest, notFound } from '../api-error.js';
import type { Catalog } from '../../catalog/catalog.js';
import { parseCatalogId, type CatalogType } from '../../catalog/catalog-ids.js';
import type { Handler } from '../context.js';
import { commaList, type Query } from '../query.js';
import { parseFields } from './params.js';
import { CatalogRenderer, LOOKUP_INCLUDES } from '../../interfaces/v1/render-catalog.js';
import { exactlyOne, lookupValues, MAX_CATALOG_PARAM_CHARS, resolveIsrcs, resolveUpcs } from './lookup-values.js';

/** The reference metadata service's messages, word for word (DECISIONS.md). */
export const MESSAGES = {
  exactlyOne: 'Provide exactly one of ids, isrc, or upc',
  tooLong: 'query parameter too long',
  invalidId: 'Invalid id. Expected omm:TYPE:ID',
  notFound: 'Resource not found',
  invalidType: 'Invalid type',
  nameRequired: 'name is required',
  nameTooLong: 'name too long',
  noMatch: 'No match found',
} as const;

const LOOKUP_KEYS = ['ids', 'isrc', 'upc'] as const;

/** Resolves `ids`/`isrc`/`upc` to typed ordinals in request order (catalog ids only for `ids`). */
function resolveLookup(cat: Catalog, q: Query, maxChars: number | null): { type: CatalogType; ordinal: number }[] {
  const by = exactlyOne(q, LOOKUP_KEYS, MESSAGES.exactlyOne);
  const raw = q.get(by) ?? '';
  if (maxChars !== null && raw.length > maxChars) throw badRequest(MESSAGES.tooLong, by, `${raw.length} characters`);
  const values = lookupValues(q, by);
  if (by === 'isrc') return resolveIsrcs(cat, values).map((ordinal) => ({ type: 'song', ordinal }));
  if (by === 'upc') return resolveUpcs(cat, values).map((ordinal) => ({ type: 'album', ordinal }));
  const out: { type: CatalogType; ordinal: number }[] = [];
  for (const id of values) {
    if (!parseCatalogId(id)) throw badRequest(MESSAGES.invalidId, 'ids', id);
    const found = cat.resolveCatalogId(id);
    if (found) out.push(found);
  }
  return out;
}

function pathCatalogId(cat: Catalog, id: string): { type: CatalogType; ordinal: number } {
  if (!parseCatalogId(id)) throw badRequest(MESSAGES.invalidId, 'id', id);
  const found = cat.resolveCatalogId(id);
  if (!found) throw notFound(MESSAGES.notFound);
  return found;
}

/** `include` of /lookup and /match: one level; values a type does not support are ignored. */
export function lookupInclude(q: Query): string[] {
  return commaList(q.get('include') ?? '');
}

/** GET /catalog: ids, isrc or upc (100 values and 10000 characters at most). */
export const catalogList: Handler = ({ cat, query }) => {
  const renderer = new CatalogRenderer(cat, 'catalog');
  return { data: resolveLookup(cat, query, MAX_CATALOG_PARAM_CHARS).map((r) => renderer.catalogResource(r.type, r.ordinal)) };
};

/** GET /catalog/{id}: a catalog id. */
export const catalogGet: Handler = ({ cat, params }) => {
  const found = pathCatalogId(cat, params.id);
  return { data: new CatalogRenderer(cat, 'catalog').catalogResource(found.type, found.ordinal) };
};

function lookupRenderer(cat: Catalog, q: Query): CatalogRenderer {
  const fields = parseFields(q, ['song', 'album', 'artist'], 'lookup');
  q.check();
  return new CatalogRenderer(cat, 'lookup', fields);
}

/** GET /lookup: ids (catalog ids), isrc or upc; `include` one level. */
export const lookupList: Handler = ({ cat, query }) => {
  const renderer = lookupRenderer(cat, query);
  const include = lookupInclude(query);
  return {
    data: resolveLookup(cat, query, null).map((r) =>
      renderer.resource(
        r.type,
        r.ordinal,
        include.filter((i) => LOOKUP_INCLUDES[r.type].includes(i)),
      ),
    ),
  };
};

/** GET /lookup/{id}. */
export const lookupGet: Handler = ({ cat, params, query }) => {
  const renderer = lookupRenderer(cat, query);
  const found = pathCatalogId(cat, params.id);
  return { data: renderer.resource(found.type, found.ordinal, lookupInclude(query)) };
};

/** GET /v1/: exact counts. */
export const stats: Handler = ({ cat }) => ({ stats: { songs: cat.counts.songs, albums: cat.counts.albums, artists: cat.counts.artists } });
