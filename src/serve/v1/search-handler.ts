import type { Catalog } from '../../catalog/catalog.js';
import type { Handler } from '../context.js';
import { commaList, type Query } from '../query.js';
import { SEARCH_WINDOW, type SearchResult } from '../../search/search-engine.js';
import { hitOrdinal, hitShare, searchCatalog } from '../../search/catalog-search.js';
import { parseFields, parseLang } from './params.js';
import { DEFAULT_LIMIT, emptyInclude, MAX_LIMIT } from '../../interfaces/v1/spec.js';
import { V1Renderer } from '../../interfaces/v1/render.js';

export type SearchType = 'song' | 'album' | 'artist' | 'playlist';
export const SEARCH_TYPES: readonly SearchType[] = ['song', 'album', 'artist', 'playlist'];
const TYPES_VALUES = [...SEARCH_TYPES, 'top'] as const;
const GROUP: Record<SearchType, string> = { song: 'songs', album: 'albums', artist: 'artists', playlist: 'playlists' };
export const MAX_TERM_LENGTH = 256;
export const TOP_LIMIT = 10;

/** `term`: required, 1..256 characters once trimmed. */
export function parseTerm(query: Query): string {
  const raw = query.get('term');
  const term = raw?.trim() ?? '';
  if (raw === undefined || term.length === 0) query.problem('term', raw ?? null, 'term is required');
  else if ([...term].length > MAX_TERM_LENGTH)
    query.problem('term', raw.length > 300 ? `${raw.slice(0, 300)}...` : raw, `term must be at most ${MAX_TERM_LENGTH} characters`);
  return term;
}

function parseTypes(query: Query): Set<(typeof TYPES_VALUES)[number]> {
  const raw = query.get('types');
  if (raw === undefined) return new Set(TYPES_VALUES);
  const out = new Set<(typeof TYPES_VALUES)[number]>();
  const values = commaList(raw);
  if (values.length === 0) query.problem('types', raw, `types must list one or more of ${TYPES_VALUES.join(', ')}`);
  for (const v of values) {
    if ((TYPES_VALUES as readonly string[]).includes(v)) out.add(v as (typeof TYPES_VALUES)[number]);
    else query.problem('types', v, `types must be a comma-separated list of ${TYPES_VALUES.join(', ')}`);
  }
  return out;
}

/**
 * GET /search: one group per requested type, `{data, meta: {limit, offset, total}}`, best
 * first, plus `top`, the best 10 of all types together. `total` counts matches up to the search
 * window (1,000 per type); `offset + limit` may not pass it.
 */
export const search: Handler = ({ cat, query }) => {
  const term = parseTerm(query);
  const types = parseTypes(query);
  const fields = parseFields(query, SEARCH_TYPES, 'full');
  const lang = parseLang(query);
  const limit = query.int('limit', 1, MAX_LIMIT, DEFAULT_LIMIT);
  const offset = query.int('offset', 0, Number.MAX_SAFE_INTEGER, 0);
  if (offset + limit > SEARCH_WINDOW && query.problems.length === 0) {
    query.problem('offset', String(offset), `offset + limit must not exceed ${SEARCH_WINDOW} on search`);
  }
  query.check();

  const renderer = new V1Renderer(cat, { include: emptyInclude(), limits: new Map(), sorts: new Map(), fields, lang, attributes: 'full' });
  const topLimit = Math.min(limit, TOP_LIMIT);
  const results = new Map<SearchType, SearchResult>();
  for (const type of SEARCH_TYPES) {
    const need = Math.max(types.has(type) ? offset + limit : 0, types.has('top') ? TOP_LIMIT : 0);
    if (types.has(type) || types.has('top')) results.set(type, searchCatalog(cat, type, term, { need }));
  }
  const body: Record<string, unknown> = {};
  for (const type of SEARCH_TYPES) {
    if (!types.has(type)) continue;
    const { hits, total } = results.get(type)!;
    const ordinals = hits.slice(offset, offset + limit).map((h) => hitOrdinal(cat, type, h.rank));
    body[GROUP[type]] = { data: renderer.list(type, ordinals, null), meta: { limit, offset, total } };
  }
  if (types.has('top')) {
    const top = topHits(cat, results);
    const shown = top.slice(offset, offset + topLimit);
    body.top = {
      data: shown.map((h) => renderer.resource(h.type, h.ordinal, null)),
      meta: { limit: topLimit, offset, total: top.length },
    };
  }
  return body;
};

/**
 * The best hits of every type together, at most 10: by match tier, then by popularity relative
 * to the type's size (rank / count, so the 5th of 100 artists ties the 50th of 1,000 songs),
 * then songs, albums, artists, playlists.
 */
export function topHits(cat: Catalog, results: Map<SearchType, SearchResult>): { type: SearchType; ordinal: number }[] {
  const all: { type: SearchType; ordinal: number; tier: number; share: number; typeOrder: number }[] = [];
  SEARCH_TYPES.forEach((type, typeOrder) => {
    const result = results.get(type);
    if (!result) return;
    for (const h of result.hits.slice(0, TOP_LIMIT)) {
      all.push({
        type,
        ordinal: hitOrdinal(cat, type, h.rank),
        tier: h.tier,
        share: hitShare(cat, type, h.rank),
        typeOrder,
      });
    }
  });
  all.sort((a, b) => a.tier - b.tier || a.share - b.share || a.typeOrder - b.typeOrder);
  return all.slice(0, TOP_LIMIT);
}
