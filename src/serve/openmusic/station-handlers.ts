import { notFound } from '../api-error.js';
import type { Catalog } from '../../catalog/catalog.js';
import type { Handler, RequestContext } from '../context.js';
import { popularStation, stationForGenre, stored, type StationView } from '../../catalog/stations.js';
import { parseOmRequest } from './params.js';
import { STATION, TRACKS } from '../../interfaces/openmusic/endpoints.js';
import { OmRenderer } from '../../interfaces/openmusic/render.js';
import { relatedBody, resolveOm } from './resource-handlers.js';

function artistStation(cat: Catalog, id: string): StationView | null {
  const artist = resolveOm(cat, 'artists', id);
  return artist < 0 ? null : stored(cat, cat.resolve('station', `artist-${cat.artist(artist).id}`));
}

function station(find: (ctx: RequestContext) => StationView | null): Handler {
  return (ctx) => {
    const req = parseOmRequest(ctx.query, STATION);
    ctx.query.check();
    const view = find(ctx);
    if (!view) throw notFound();
    return { data: new OmRenderer(ctx.cat, req.render).station(view) };
  };
}

/** `/rel/tracks` of a station: station order by default, or `sort`; paged. */
function tracks(find: (ctx: RequestContext) => StationView | null): Handler {
  return (ctx) => {
    const req = parseOmRequest(ctx.query, TRACKS);
    ctx.query.check();
    const view = find(ctx);
    if (!view) throw notFound();
    return relatedBody(ctx, 'songs', view.tracks, req.sort, req);
  };
}

const byArtist = (ctx: RequestContext) => artistStation(ctx.cat, ctx.params.id);
const byGenre = (ctx: RequestContext) => stationForGenre(ctx.cat, ctx.params.genre);
const popular = (ctx: RequestContext) => popularStation(ctx.cat);

export const artistStationGet = station(byArtist);
export const artistStationTracks = tracks(byArtist);
export const genreStationGet = station(byGenre);
export const genreStationTracks = tracks(byGenre);
export const popularStationGet = station(popular);
export const popularStationTracks = tracks(popular);
