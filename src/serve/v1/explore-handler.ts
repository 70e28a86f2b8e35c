import { exploreGroups } from '../../catalog/explore-feed.js';
import type { Handler } from '../context.js';
import { stored } from '../../catalog/stations.js';
import { parseFields, parseLang } from './params.js';
import { DEFAULT_LIMIT, emptyInclude, MAX_LIMIT } from '../../interfaces/v1/spec.js';
import { V1Renderer } from '../../interfaces/v1/render.js';

/** GET /explore: a raw array of groups; `limit`/`offset` page the resources inside each group. */
export const explore: Handler = ({ cat, query }) => {
  const fields = parseFields(query, ['song', 'album', 'artist', 'playlist', 'station'], 'full');
  const lang = parseLang(query);
  const limit = query.int('limit', 1, MAX_LIMIT, DEFAULT_LIMIT);
  const offset = query.int('offset', 0, Number.MAX_SAFE_INTEGER, 0);
  query.check();
  const renderer = new V1Renderer(cat, { include: emptyInclude(), limits: new Map(), sorts: new Map(), fields, lang, attributes: 'full' });
  return exploreGroups(cat).map((g) => {
    const shown = g.ordinals.slice(offset, offset + limit);
    const data = g.type === 'station' ? shown.map((o) => renderer.station(stored(cat, o)!, null)) : renderer.list(g.type, shown, null);
    return { title: g.title, type: g.type, data };
  });
};
