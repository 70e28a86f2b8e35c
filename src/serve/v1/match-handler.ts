import { badRequest, notFound } from '../api-error.js';
import type { CatalogType } from '../../catalog/catalog-ids.js';
import type { Handler } from '../context.js';
import { matchResource } from '../../search/match/matcher.js';
import { lookupInclude, MESSAGES } from './catalog-handlers.js';
import { CatalogRenderer, LOOKUP_INCLUDES } from '../../interfaces/v1/render-catalog.js';

const MATCH_TYPES: readonly CatalogType[] = ['song', 'album', 'artist'];
const MAX_NAME = 256;
const MAX_DURATION_MS = 24 * 3600 * 1000;

/**
 * GET /match/{type}?name=&artist=&album=&duration=: the best resource for the metadata, in the
 * lookup attribute set with the catalog id, or 404 `No match found` below the threshold
 * (src/search/match/scoring.ts). `include` is one level; values the type lacks are ignored.
 */
export const match: Handler = ({ cat, params, query }) => {
  const type = params.type as CatalogType;
  if (!MATCH_TYPES.includes(type)) throw badRequest(MESSAGES.invalidType, 'type', params.type);
  const name = query.get('name')?.trim() ?? '';
  if (name.length === 0) throw badRequest(MESSAGES.nameRequired, 'name', query.get('name') ?? null);
  const nameLength = [...name].length;
  if (nameLength > MAX_NAME) throw badRequest(MESSAGES.nameTooLong, 'name', `${nameLength} characters`);
  const artist = optionalText(query.get('artist'), 'artist');
  const album = optionalText(query.get('album'), 'album');
  const rawDuration = query.get('duration');
  const duration = rawDuration === undefined ? undefined : query.intValue('duration', rawDuration, 1, MAX_DURATION_MS);
  const include = lookupInclude(query).filter((rel) => LOOKUP_INCLUDES[type].includes(rel));
  query.check();
  const found = matchResource(cat, type, { name, artist, album, duration });
  if (!found) throw notFound(MESSAGES.noMatch);
  return { data: new CatalogRenderer(cat, 'lookup').resource(type, found.ordinal, include) };
};

function optionalText(raw: string | undefined, param: string): string | undefined {
  const value = raw?.trim();
  if (value === undefined || value.length === 0) return undefined;
  if ([...value].length > MAX_NAME) throw badRequest(`${param} too long`, param, `${[...value].length} characters`);
  return value;
}
