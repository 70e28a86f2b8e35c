import { SERVICE_NAME, SERVICE_VERSION } from '../service-info.js';
import { openMusicPaths } from './openmusic-paths.js';
import { getOperations, param, type Json } from './operations.js';
import { openMusicSchemas } from './openmusic-schemas.js';
import { v1Schemas } from './v1-schemas.js';

/**
 * Our OpenAPI 3.1 document of the service, served at /openapi.json. Written from our own
 * behaviour (see docs/api-v1.md); every response the test suite receives is validated against
 * it (test/helpers/openapi-validator.ts).
 */
const get = getOperations('Error', 'A bad parameter; `details` names each bad parameter and value');

const INCLUDE_GROUP = (fieldTypes: string[]): Json[] => [
  param('lang', 'query', 'Preferred language of lyrics (BCP 47); falls back to the same language, then English, then the first'),
  param(
    'include',
    'query',
    'Comma-separated relationship names; dot notation up to three levels (`albums.tracks.artists`); a nested path implies its ancestors',
  ),
  param('limit[{resource}:{relationship}]', 'query', 'Size of an included relationship, e.g. `limit[album:tracks]=5`; 1..100, default 25', {
    type: 'integer',
    minimum: 1,
    maximum: 100,
  }),
  param(
    'sort[{resource}:{relationship}]',
    'query',
    'Order of an included relationship, e.g. `sort[artist:albums]=-releaseDate`: `name`, `dateAdded`, minus for descending; `releaseDate` for songs and albums',
  ),
  ...fieldTypes.map((t) => param(`fields[${t}]`, 'query', `Comma-separated attributes to keep on every ${t} in the response; empty keeps none`)),
];

const SORTS: Record<string, string[]> = {
  song: ['name', '-name', 'dateAdded', '-dateAdded', 'releaseDate', '-releaseDate'],
  album: ['name', '-name', 'dateAdded', '-dateAdded', 'releaseDate', '-releaseDate'],
  artist: ['name', '-name', 'dateAdded', '-dateAdded'],
  playlist: ['name', '-name', 'dateAdded', '-dateAdded'],
};

const PAGE_GROUP = (type: string): Json[] => [
  param('limit', 'query', 'Resources per page, 1..100', { type: 'integer', minimum: 1, maximum: 100, default: 25 }),
  param('offset', 'query', 'Resources to skip', { type: 'integer', minimum: 0, default: 0 }),
  param('sort', 'query', 'Order; ties break on local id. A missing date sorts last both ways', { type: 'string', enum: SORTS[type] }),
];

const ID = param('id', 'path', 'Local id or catalog id (`omm:<type>:<16 chars>`)');
const IDS = param('ids', 'query', 'Comma-separated ids, at most 100; results follow request order, unknown ids are left out, repeats are repeated');

const FIELD_TYPES: Record<string, string[]> = {
  song: ['song', 'album', 'artist'],
  album: ['album', 'song', 'artist'],
  artist: ['artist', 'song', 'album'],
  playlist: ['playlist', 'song'],
  station: ['station', 'song'],
};

function v1Paths(p: string): Json {
  const paths: Json = {
    [`${p}/`]: get('Exact counts of songs, albums and artists', [], 'Stats', 'catalog'),
    [`${p}/stations/popular`]: get('The most popular songs as a station', INCLUDE_GROUP(FIELD_TYPES.station), 'StationSingle', 'stations'),
    [`${p}/stations/genres/{name}`]: get(
      'A genre station',
      [param('name', 'path', 'Genre name, case-insensitive'), ...INCLUDE_GROUP(FIELD_TYPES.station)],
      'StationSingle',
      'stations',
    ),
    [`${p}/stations/{type}/{id}`]: get(
      'The station seeded by a song, album or artist',
      [param('type', 'path', 'Seed type', { type: 'string', enum: ['song', 'album', 'artist'] }), ID, ...INCLUDE_GROUP(FIELD_TYPES.station)],
      'StationSingle',
      'stations',
    ),
    [`${p}/station/{id}`]: get('A station by id', [param('id', 'path', 'Station id'), ...INCLUDE_GROUP(FIELD_TYPES.station)], 'StationSingle', 'stations'),
    [`${p}/station/{id}/tracks`]: get(
      "A station's songs, in station order",
      [
        param('id', 'path', 'Station id'),
        ...PAGE_GROUP('song'),
        param('fields[song]', 'query', 'Attributes to keep'),
        param('lang', 'query', 'Lyrics language'),
      ],
      'SongList',
      'stations',
    ),
  };
  const related: Record<string, [string, string][]> = {
    playlist: [['tracks', 'song']],
    artist: [
      ['tracks', 'song'],
      ['albums', 'album'],
    ],
    album: [
      ['tracks', 'song'],
      ['artists', 'artist'],
    ],
    song: [
      ['albums', 'album'],
      ['artists', 'artist'],
    ],
  };
  for (const [type, rels] of Object.entries(related)) {
    const title = type[0].toUpperCase() + type.slice(1);
    const tag = `${type}s`;
    paths[`${p}/${type}s`] = get(`Every ${type}, paged`, [...PAGE_GROUP(type), ...INCLUDE_GROUP(FIELD_TYPES[type])], `${title}List`, tag);
    const lookupParams = [
      IDS,
      ...(type === 'song' ? [param('isrc', 'query', 'Comma-separated ISRCs, case-insensitive; one ISRC may give several songs')] : []),
      ...(type === 'album' ? [param('upc', 'query', 'Comma-separated UPC-A or EAN-13 codes, compared as GTIN-13')] : []),
    ];
    paths[`${p}/${type}s/lookup`] = get(
      `${title}s by ${lookupParams.map((x) => x.name).join(' or ')}`,
      [...lookupParams, ...INCLUDE_GROUP(FIELD_TYPES[type])],
      `${title}Lookup`,
      tag,
    );
    paths[`${p}/${type}/{id}`] = get(`One ${type}`, [ID, ...INCLUDE_GROUP(FIELD_TYPES[type])], `${title}Single`, tag);
    for (const [rel, target] of rels) {
      const targetTitle = target[0].toUpperCase() + target.slice(1);
      paths[`${p}/${type}/{id}/rel/${rel}`] = get(
        `The ${rel} of a ${type}, paged`,
        [ID, ...PAGE_GROUP(target), param(`fields[${target}]`, 'query', 'Attributes to keep'), param('lang', 'query', 'Lyrics language')],
        `${targetTitle}List`,
        tag,
      );
    }
  }
  const lookupKeys = [
    param('ids', 'query', 'Comma-separated catalog ids'),
    param('isrc', 'query', 'Comma-separated ISRCs'),
    param('upc', 'query', 'Comma-separated UPCs'),
  ];
  Object.assign(paths, {
    [`${p}/catalog`]: get('Catalog resources by exactly one of ids, isrc, upc (100 values, 10,000 characters at most)', lookupKeys, 'CatalogList', 'catalog'),
    [`${p}/catalog/{id}`]: get(
      'One catalog resource',
      [param('id', 'path', 'Catalog id', { type: 'string', pattern: '^omm:(song|album|artist):[0-9a-z]{16}$' })],
      'CatalogSingle',
      'catalog',
    ),
    [`${p}/lookup`]: get(
      'Resources by exactly one of ids, isrc, upc, with one level of include',
      [...lookupKeys, param('include', 'query', 'albums, artists (songs); artists (albums); other values are ignored')],
      'LookupList',
      'catalog',
    ),
    [`${p}/lookup/{id}`]: get(
      'One resource by catalog id',
      [param('id', 'path', 'Catalog id'), param('include', 'query', 'One level')],
      'LookupSingle',
      'catalog',
    ),
    [`${p}/match/{type}`]: get(
      'The best resource for a name (and artist, album, duration), or 404 No match found below the threshold',
      [
        param('type', 'path', 'Resource type', { type: 'string', enum: ['song', 'album', 'artist'] }),
        param('name', 'query', 'Title or name, 1..256 characters', { type: 'string', maxLength: 256 }, true),
        param('artist', 'query', 'Artist credit (songs, albums); several artists in any order, joined by "&", ",", "feat."'),
        param('album', 'query', 'Album title (songs)'),
        param('duration', 'query', 'Duration in milliseconds (songs)', { type: 'integer', minimum: 1 }),
        param('include', 'query', 'One level: albums, artists (songs); artists (albums)'),
      ],
      'LookupSingle',
      'catalog',
    ),
    [`${p}/explore`]: get(
      'Editorial groups (raw array); limit/offset page the resources inside each group',
      [
        param('limit', 'query', '1..100', { type: 'integer' }),
        param('offset', 'query', '>= 0', { type: 'integer' }),
        param('lang', 'query', 'Lyrics language'),
      ],
      'ExploreGroups',
      'catalog',
    ),
    [`${p}/search`]: get(
      'Search by name, case- and accent-insensitive, typo-tolerant, in any script',
      [
        param('term', 'query', '1..256 characters after trimming', { type: 'string', maxLength: 256 }, true),
        param('types', 'query', 'Comma-separated groups: song, album, artist, playlist, top (default all)'),
        param('limit', 'query', 'Per group, 1..100; top returns at most 10', { type: 'integer', minimum: 1, maximum: 100, default: 25 }),
        param('offset', 'query', 'offset + limit must not exceed 1000', { type: 'integer', minimum: 0, default: 0 }),
        ...['song', 'album', 'artist', 'playlist'].map((t) => param(`fields[${t}]`, 'query', 'Attributes to keep')),
        param('lang', 'query', 'Lyrics language'),
      ],
      'SearchResults',
      'search',
    ),
  });
  return paths;
}

function servicePaths(): Json {
  return {
    '/': get('Service information: name, version, snapshot in service, counts, links', [], 'ServiceInfo', 'service'),
    '/healthz': get('Liveness', [], 'Health', 'service'),
    '/readyz': (() => {
      const op = get('Readiness: a snapshot is in service and the process is not shutting down (503 while it drains)', [], 'Ready', 'service');
      (op.get as { responses: Json }).responses['503'] = {
        description: 'Not ready: shutting down (draining), or a replica still fetching its first build; send requests elsewhere',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Ready' } } },
      };
      return op;
    })(),
    '/metrics': {
      get: {
        summary: 'Prometheus metrics (text exposition format 0.0.4)',
        tags: ['service'],
        responses: { '200': { description: 'Metrics', content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
    '/openapi.json': {
      get: {
        summary: 'This document',
        tags: ['service'],
        responses: { '200': { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
  };
}

export function openApiDocument(v1Prefix = '/v1', openMusicPrefix = '/openmusic'): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: `${SERVICE_NAME} catalog API`,
      version: SERVICE_VERSION,
      description:
        'Read-only music catalog served from a compiled snapshot. Interface 1 (under the v1 prefix): resources with `attributes`, camelCase, errors in the `Error` body. Interface 2 (under the openmusic prefix, the OpenMusic standard): resources with `meta` and `instance`, snake_case, errors in the `OmError` body. The request id is also in `X-Request-Id`.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths: { ...servicePaths(), ...v1Paths(v1Prefix), ...openMusicPaths(openMusicPrefix) },
    components: { schemas: { ...v1Schemas(), ...openMusicSchemas() } },
  };
}
