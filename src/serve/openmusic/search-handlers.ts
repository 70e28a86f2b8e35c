import { requestError } from '../api-error.js';
import type { Catalog } from '../../catalog/catalog.js';
import type { Handler } from '../context.js';
import { SEARCH_WINDOW, type SearchResult } from '../../search/search-engine.js';
import { hitOrdinal, searchCatalog } from '../../search/catalog-search.js';
import { searchText } from '../../index-format/search/search-text.js';
import { stored, type StationView } from '../../catalog/stations.js';
import { parseTerm, SEARCH_TYPES, TOP_LIMIT, topHits, type SearchType } from '../v1/search-handler.js';
import { genrePredicate, pageOf } from './genre-filter.js';
import { parseOmRequest } from './params.js';
import { OM_TYPE } from '../../interfaces/openmusic/spec.js';
import { BUCKET_DEFAULT, BUCKETS, DEFAULT_BUCKETS, SEARCH, TYPED } from '../../interfaces/openmusic/endpoints.js';
import { OmRenderer } from '../../interfaces/openmusic/render.js';
import { listBody } from './resource-handlers.js';

/**
 * GET /search: `{data: {<bucket>: [resources]}}` for the buckets `include` names (default top,
 * songs, artists, albums). songs, albums and artists hold `limit[<bucket>]` (default 10); top,
 * playlists and stations 10. `limit[tracks]` is accepted and validated as the standard lists it,
 * and sizes nothing: search results carry no relationships. Stations are the genre stations
 * whose genre name starts with the term, then the stations of the artists found.
 */
export const searchBuckets: Handler = ({ cat, query }) => {
  const term = parseTerm(query);
  const req = parseOmRequest(query, SEARCH);
  query.check();
  const buckets = req.buckets.size > 0 ? req.buckets : new Set(DEFAULT_BUCKETS);
  const renderer = new OmRenderer(cat, req.render);
  const results = new Map<SearchType, SearchResult>();
  const needs = (type: SearchType) => buckets.has(OM_TYPE[type]) || buckets.has('top') || (type === 'artist' && buckets.has('stations'));
  // Hits each type must rank: its bucket's limit, the top bucket's 10, and for stations the artists until 10 have one.
  const need = (type: SearchType) => {
    if (type === 'artist' && buckets.has('stations')) return SEARCH_WINDOW;
    const own = buckets.has(OM_TYPE[type]) ? (req.render.limits.get(OM_TYPE[type]) ?? BUCKET_DEFAULT) : 0;
    return Math.max(own, buckets.has('top') ? TOP_LIMIT : 0);
  };
  // Buckets are not paged: only the hits are used, so nothing past them is counted.
  for (const type of SEARCH_TYPES) if (needs(type)) results.set(type, searchCatalog(cat, type, term, { need: need(type), countTo: need(type) }));
  const data: Record<string, unknown> = {};
  for (const bucket of BUCKETS) {
    if (!buckets.has(bucket)) continue;
    if (bucket === 'top') data.top = topHits(cat, results).map((h) => renderer.resource(OM_TYPE[h.type], h.ordinal));
    else if (bucket === 'stations') data.stations = stationsFor(cat, term, results.get('artist')!).map((v) => renderer.station(v));
    else {
      const type = SEARCH_TYPES.find((t) => OM_TYPE[t] === bucket)!;
      const limit = req.render.limits.get(bucket) ?? BUCKET_DEFAULT;
      data[bucket] = renderer.list(
        bucket,
        results
          .get(type)!
          .hits.slice(0, limit)
          .map((h) => hitOrdinal(cat, type, h.rank)),
      );
    }
  }
  return { data };
};

/** Each genre's normalised name and station, read once per snapshot (not per request). */
const genreCache = new WeakMap<Catalog, { text: string; stationId: string }[]>();
function genreNames(cat: Catalog): { text: string; stationId: string }[] {
  let genres = genreCache.get(cat);
  if (!genres) {
    genres = Array.from({ length: cat.records('genre').count }, (_, g) => cat.genre(g)).map((r) => ({ text: searchText(r.name), stationId: r.stationId }));
    genreCache.set(cat, genres);
  }
  return genres;
}

function stationsFor(cat: Catalog, term: string, artists: SearchResult): StationView[] {
  const out: StationView[] = [];
  const wanted = searchText(term);
  for (const genre of genreNames(cat)) {
    if (out.length >= BUCKET_DEFAULT) break;
    if (genre.text.startsWith(wanted)) {
      const view = stored(cat, cat.resolve('station', genre.stationId));
      if (view) out.push(view);
    }
  }
  for (const hit of artists.hits) {
    if (out.length >= BUCKET_DEFAULT) break;
    const view = stored(cat, cat.resolve('station', `artist-${cat.artist(hitOrdinal(cat, 'artist', hit.rank)).id}`));
    if (view) out.push(view);
  }
  return out;
}

/** GET /search/{type}: one type's results, best first, paged within the search window. */
export function searchOfType(type: SearchType): Handler {
  return ({ cat, query }) => {
    const term = parseTerm(query);
    const req = parseOmRequest(query, TYPED[type]);
    query.check();
    if (req.offset + req.limit > SEARCH_WINDOW)
      throw requestError(400, `offset + limit must not exceed ${SEARCH_WINDOW} on search`, 'offset', String(req.offset));
    if (req.genres) {
      // The genre filter needs every result of the window, then pages what passes.
      const ordinals = searchCatalog(cat, type, term)
        .hits.map((h) => hitOrdinal(cat, type, h.rank))
        .filter(genrePredicate(cat, OM_TYPE[type], req.genres));
      return listBody(new OmRenderer(cat, req.render), OM_TYPE[type], pageOf(ordinals, req.offset, req.limit), req);
    }
    const result = searchCatalog(cat, type, term, { need: req.offset + req.limit, countTo: req.offset + req.limit + 1 });
    const ordinals = result.hits.slice(req.offset).map((h) => hitOrdinal(cat, type, h.rank));
    return listBody(new OmRenderer(cat, req.render), OM_TYPE[type], { ordinals, hasNext: req.offset + req.limit < result.total }, req);
  };
}
