import { includableOf, type EndpointSpec } from '../openmusic/spec.js';
import { LIST, LOOKUP_KEYS, RELATED, SEARCH, SINGLE, STATION, TRACKS, TYPED } from '../openmusic/endpoints.js';
import { getOperations, param, type Json } from './operations.js';

/**
 * Paths of interface 2 in our OpenAPI document, built from the same endpoint specs the handlers
 * enforce (src/serve/openmusic), so the document cannot list a parameter the server refuses.
 */
const get = getOperations('OmError', 'A bad parameter; the message names it');
const ID = param('id', 'path', 'Local id, catalog id (`omm:<type>:<16 chars>`) or the bare 16 characters of meta.omm_id');

function specParams(spec: EndpointSpec): Json[] {
  const out: Json[] = [param('lang', 'query', 'Preferred language of lyrics; default and fallback en-US')];
  const includable = includableOf(spec);
  out.push(
    param(
      'include',
      'query',
      spec.buckets
        ? `Comma-separated buckets: ${includable.join(', ')} (default top, songs, artists, albums)`
        : `Comma-separated relationships, one level: ${includable.join(', ') || 'none'}`,
    ),
  );
  out.push(param('view', 'query', 'minimal drops attributes everywhere', { type: 'string', enum: ['minimal'] }));
  for (const t of spec.views) out.push(param(`view[${t}]`, 'query', `minimal drops the attributes of ${t}`, { type: 'string', enum: ['minimal'] }));
  for (const k of spec.limits)
    out.push(
      param(`limit[${k}]`, 'query', spec.buckets ? `Size of the ${k} bucket, default 10` : `Included ${k}, default 25`, {
        type: 'integer',
        minimum: 1,
        maximum: 25,
      }),
    );
  if (spec.paged) {
    out.push(param('limit', 'query', 'Page size', { type: 'integer', minimum: 1, maximum: 25, default: 25 }));
    out.push(param('offset', 'query', 'Resources to skip', { type: 'integer', minimum: 0, default: 0 }));
  }
  if (spec.sorts) out.push(param('sort', 'query', 'Order; minus for descending; ties break on local id', { type: 'string', enum: [...spec.sorts] }));
  if (spec.genres) out.push(param('filter[genres]', 'query', 'Comma-separated genre names, case-insensitive; keeps resources with any of them'));
  return out;
}

const TITLE: Record<string, string> = { songs: 'Song', albums: 'Album', artists: 'Artist', playlists: 'Playlist', stations: 'Station' };

export function openMusicPaths(p: string): Json {
  const paths: Json = {
    [`${p}/`]: get('OpenMusic information: branding, version, capabilities', [param('lang', 'query', 'Ignored')], 'OmInfo', 'openmusic'),
  };
  for (const type of ['songs', 'albums', 'artists', 'playlists'] as const) {
    const lookups = LOOKUP_KEYS[type].map((k) =>
      param(k, 'query', `Comma-separated ${k} (at most 100; request order; unknown values left out); at most one of ${LOOKUP_KEYS[type].join(', ')}`),
    );
    paths[`${p}/${type}`] = get(
      `${TITLE[type]}s by ${LOOKUP_KEYS[type].join(', ')}, or every ${type.slice(0, -1)} paged`,
      [...lookups, ...specParams(LIST[type])],
      `Om${TITLE[type]}List`,
      `openmusic ${type}`,
    );
    paths[`${p}/${type}/{id}`] = get(`One ${type.slice(0, -1)}`, [ID, ...specParams(SINGLE[type])], `Om${TITLE[type]}Single`, `openmusic ${type}`);
  }
  for (const [key, spec] of Object.entries(RELATED)) {
    const [type, rel] = key.split(':');
    paths[`${p}/${type}/{id}/rel/${rel}`] = get(
      `The ${rel} of a ${type.slice(0, -1)}, paged`,
      [ID, ...specParams(spec)],
      `Om${TITLE[spec.type]}List`,
      `openmusic ${type}`,
    );
  }
  paths[`${p}/songs/{id}/rel/lyrics`] = get(
    'The lyrics of a song in `lang` (fallback en-US); 404 when it has none',
    [ID, param('lang', 'query', 'Preferred language')],
    'OmLyricsSingle',
    'openmusic songs',
  );
  const seeds: [string, Json[], string][] = [
    ['artist/{id}', [param('id', 'path', 'Artist id (local, catalog or bare omm_id)')], "An artist's station"],
    ['genre/{genre}', [param('genre', 'path', 'Genre name, case-insensitive')], "A genre's station: its songs by popularity"],
    ['popular', [], 'The most popular songs'],
  ];
  for (const [path, params, summary] of seeds) {
    paths[`${p}/stations/${path}`] = get(summary, [...params, ...specParams(STATION)], 'OmStationSingle', 'openmusic stations');
    paths[`${p}/stations/${path}/rel/tracks`] = get(
      `${summary}: tracks in station order, paged`,
      [...params, ...specParams(TRACKS)],
      'OmSongList',
      'openmusic stations',
    );
  }
  const term = param('term', 'query', '1..256 characters after trimming', { type: 'string', maxLength: 256 }, true);
  paths[`${p}/search`] = get('Search results in buckets', [term, ...specParams(SEARCH)], 'OmSearch', 'openmusic search');
  for (const [type, spec] of Object.entries(TYPED)) {
    paths[`${p}/search/${type}s`] = get(
      `Search ${type}s, best first; offset + limit at most 1000`,
      [term, ...specParams(spec)],
      `Om${TITLE[`${type}s`]}List`,
      'openmusic search',
    );
  }
  return paths;
}
