import { ATTRIBUTES } from '../v1/attributes.js';

/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses) of every interface-1 body. Strict on purpose:
 * unknown properties are errors, so the tests that validate every response against these
 * catch a leaked field as surely as a missing one. Attributes are all optional because
 * `fields[type]` may drop any of them; absent values are omitted, never null.
 */
type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str: Schema = { type: 'string' };
const int = (minimum = 0): Schema => ({ type: 'integer', minimum });
const strings: Schema = { type: 'array', items: str };
const obj = (properties: Record<string, Schema>, required: string[] = []): Schema => ({ type: 'object', properties, required, additionalProperties: false });
const date: Schema = { type: 'string', pattern: '^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$', description: 'YYYY, YYYY-MM or YYYY-MM-DD, as the raw data gives it' };
const url: Schema = { type: 'string', format: 'uri' };
/** Artwork may be a template with `{w}` and `{h}` for the size the client wants. */
const artwork: Schema = { type: 'string', format: 'uri-template', description: 'May hold `{w}` and `{h}` for the width and height the client wants' };
const catalogId = (type: string): Schema => ({ type: 'string', pattern: `^omm:${type}:[0-9a-z]{16}$` });

const ATTRIBUTE_SCHEMAS: Record<string, Schema> = {
  name: str,
  albumName: str,
  artistName: str,
  artistNames: strings,
  isrc: { type: 'string', pattern: '^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$' },
  upc: { type: 'string', pattern: '^[0-9]{8,14}$' },
  label: str,
  artworkUrl: artwork,
  trackNumber: int(0),
  discNumber: int(0),
  trackCount: int(0),
  genres: strings,
  releaseDate: date,
  durationMs: int(0),
  curatorName: str,
  description: str,
  files: ref('Files'),
  lyrics: ref('Lyrics'),
  seed: ref('StationSeed'),
};

function attributes(set: keyof typeof ATTRIBUTES, type: keyof (typeof ATTRIBUTES)['full']): Schema {
  return obj(Object.fromEntries(ATTRIBUTES[set][type].map((a) => [a, ATTRIBUTE_SCHEMAS[a]])));
}

const TITLES: Record<string, string> = { song: 'Song', album: 'Album', artist: 'Artist', playlist: 'Playlist', station: 'Station' };
/** Relationships a resource of each type can include, and the type they lead to. */
const RELATIONSHIPS: Record<string, Record<string, string>> = {
  song: { albums: 'album', artists: 'artist' },
  album: { tracks: 'song', artists: 'artist' },
  artist: { tracks: 'song', albums: 'album' },
  playlist: { tracks: 'song' },
  station: { tracks: 'song' },
};

export function v1Schemas(): Record<string, Schema> {
  const schemas: Record<string, Schema> = {
    Error: obj(
      {
        error: obj(
          {
            status: int(400),
            message: str,
            details: { type: 'array', items: obj({ message: str, param: str, value: {} }, ['message']) },
            requestId: str,
          },
          ['status', 'message', 'details', 'requestId'],
        ),
      },
      ['error'],
    ),
    ListMeta: obj({ limit: int(0), offset: int(0), total: int(0) }, ['limit', 'offset', 'total']),
    File: obj(
      {
        id: str,
        lossless: { type: 'boolean' },
        mimeType: str,
        sizeBytes: int(0),
        durationMs: int(0),
        streamUrl: url,
        downloadUrl: url,
        codec: str,
        bitrateKbps: int(0),
        sampleRateHz: int(0),
        channels: int(1),
      },
      ['id', 'lossless', 'mimeType'],
    ),
    Files: obj({ preferred: ref('File'), alternatives: { type: 'array', items: ref('File') } }, ['preferred', 'alternatives']),
    Lyrics: obj({ lang: str, text: str, ttml: str }, ['lang', 'text']),
    StationSeed: obj({ kind: { enum: ['custom', 'popular', 'genre', 'resource'] }, name: str, type: { enum: ['song', 'album', 'artist'] }, id: str }, ['kind']),
    Stats: obj({ stats: obj({ songs: int(0), albums: int(0), artists: int(0) }, ['songs', 'albums', 'artists']) }, ['stats']),
    Resource: { oneOf: Object.values(TITLES).map((t) => ref(t)) },
    SearchGroup: obj({ data: { type: 'array', items: ref('Resource') }, meta: ref('ListMeta') }, ['data', 'meta']),
    SearchResults: obj(Object.fromEntries(['songs', 'albums', 'artists', 'playlists', 'top'].map((g) => [g, ref('SearchGroup')]))),
    ExploreGroups: {
      type: 'array',
      items: obj({ title: str, type: { enum: Object.keys(TITLES) }, data: { type: 'array', items: ref('Resource') } }, ['title', 'type', 'data']),
    },
    ServiceInfo: obj(
      {
        name: str,
        version: str,
        snapshot: obj({ buildId: str, formatVersion: str }, ['buildId', 'formatVersion']),
        counts: { type: 'object', additionalProperties: int(0) },
        links: { type: 'object', additionalProperties: str },
      },
      ['name', 'version', 'snapshot', 'counts', 'links'],
    ),
    Health: obj({ status: { const: 'ok' } }, ['status']),
    // A replica of an object store (omm serve s3://…) answers before its first build is in
    // service: starting, waiting (nothing published yet), downloading, unreachable, with a detail.
    Ready: obj({ status: { enum: ['ready', 'draining', 'starting', 'waiting', 'downloading', 'unreachable'] }, buildId: str, detail: str }, ['status']),
  };
  for (const [type, title] of Object.entries(TITLES)) {
    const rels = RELATIONSHIPS[type];
    schemas[title] = obj(
      {
        id: str,
        type: { const: type },
        attributes: attributes('full', type as 'song'),
        relationships: obj(Object.fromEntries(Object.entries(rels).map(([rel, target]) => [rel, ref(`${TITLES[target]}Relationship`)]))),
      },
      ['id', 'type', 'attributes'],
    );
    schemas[`${title}Relationship`] = obj({ data: { type: 'array', items: ref(title) }, meta: ref('ListMeta') }, ['data', 'meta']);
    schemas[`${title}List`] = obj({ data: { type: 'array', items: ref(title) }, meta: ref('ListMeta') }, ['data', 'meta']);
    schemas[`${title}Lookup`] = obj({ data: { type: 'array', items: ref(title) } }, ['data']);
    schemas[`${title}Single`] = obj({ data: ref(title) }, ['data']);
  }
  for (const variant of ['catalog', 'lookup'] as const) {
    const prefix = variant === 'catalog' ? 'Catalog' : 'Lookup';
    for (const type of ['song', 'album', 'artist']) {
      const rels = Object.entries(RELATIONSHIPS[type]).filter(([rel]) => rel !== 'tracks' && !(type === 'artist'));
      schemas[`${prefix}${TITLES[type]}`] = obj(
        {
          id: catalogId(type),
          type: { const: type },
          attributes: attributes(variant, type as 'song'),
          relationships: obj(
            Object.fromEntries(rels.map(([rel, target]) => [rel, obj({ data: { type: 'array', items: ref(`${prefix}${TITLES[target]}`) } }, ['data'])])),
          ),
        },
        ['id', 'type', 'attributes'],
      );
    }
    schemas[`${prefix}Resource`] = { oneOf: ['Song', 'Album', 'Artist'].map((t) => ref(`${prefix}${t}`)) };
    schemas[`${prefix}List`] = obj({ data: { type: 'array', items: ref(`${prefix}Resource`) } }, ['data']);
    schemas[`${prefix}Single`] = obj({ data: ref(`${prefix}Resource`) }, ['data']);
  }
  return schemas;
}
