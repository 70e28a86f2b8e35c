import { badRequest, notFound } from '../api-error.js';
import type { Handler, RequestContext } from '../context.js';
import { popularStation, stationById, stationForGenre, stationForResource, type StationView } from '../../catalog/stations.js';
import { parseRenderSpec } from './params.js';
import { V1Renderer } from '../../interfaces/v1/render.js';
import { parseRelatedQuery, relatedList } from './resource-handlers.js';

const SEED_TYPES = ['song', 'album', 'artist'] as const;

function render(ctx: RequestContext, find: () => StationView | null): unknown {
  const spec = parseRenderSpec(ctx.query, 'station', ['station', 'song']);
  ctx.query.check();
  const view = find();
  if (!view) throw notFound();
  return { data: new V1Renderer(ctx.cat, spec).station(view) };
}

/** GET /stations/{type}/{id}: a song, album or artist station. */
export const stationBySeed: Handler = (ctx) => {
  const type = ctx.params.type as (typeof SEED_TYPES)[number];
  if (!SEED_TYPES.includes(type)) throw badRequest(`type must be one of ${SEED_TYPES.join(', ')}`, 'type', ctx.params.type);
  return render(ctx, () => stationForResource(ctx.cat, type, ctx.params.id));
};

export const stationByGenre: Handler = (ctx) => render(ctx, () => stationForGenre(ctx.cat, ctx.params.name));

export const stationPopular: Handler = (ctx) => render(ctx, () => popularStation(ctx.cat));

export const stationGet: Handler = (ctx) => render(ctx, () => stationById(ctx.cat, ctx.params.id));

/** GET /station/{id}/tracks: station order by default, or `sort`. */
export const stationTracks: Handler = (ctx) => {
  // The query first, so a bad parameter is a 400 even for an unknown id.
  const parsed = parseRelatedQuery(ctx, 'song');
  const view = stationById(ctx.cat, ctx.params.id);
  if (!view) throw notFound();
  return relatedList(ctx, 'song', view.tracks, undefined, parsed);
};
