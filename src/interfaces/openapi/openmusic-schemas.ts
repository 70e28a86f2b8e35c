import { ARTWORK_SIZE } from '../openmusic/artwork.js';
/**
 * JSON Schema of every interface-2 body, strict like the interface-1 schemas (unknown
 * properties are errors). Attribute keys are all present (null when unknown) unless a minimal
 * view drops `attributes` whole. Names are prefixed `Om`.
 */
type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str: Schema = { type: 'string' };
const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });
const int: Schema = { type: 'integer', minimum: 0 };
const strings: Schema = { type: 'array', items: str };
const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const arrayOf = (name: string): Schema => ({ type: 'array', items: ref(name) });
const url: Schema = { type: 'string', format: 'uri' };
const artwork: Schema = {
  type: 'string',
  format: 'uri',
  description: `A URI: the catalog's \`{w}x{h}\` artwork templates come sized ${ARTWORK_SIZE}x${ARTWORK_SIZE} (interface 1 passes them on as templates)`,
};
const date: Schema = { type: 'string', format: 'date' };
const meta = obj({ omm_id: { type: 'string', pattern: '^[0-9a-z]{16}$' } });

/** A resource: id, type, attributes unless minimal, meta where the type has one, relationships when included. */
function resource(type: string, attributes: Schema, relationships: Record<string, Schema>, extra: Record<string, Schema> = {}, hasMeta = true): Schema {
  const properties: Record<string, Schema> = {
    id: str,
    type: { const: type },
    attributes,
    ...(hasMeta ? { meta } : {}),
    ...extra,
    relationships: obj(relationships, []),
  };
  return obj(properties, ['id', 'type', ...(hasMeta ? ['meta'] : []), ...Object.keys(extra)]);
}

export function openMusicSchemas(): Record<string, Schema> {
  return {
    OmFile: obj({
      download_url: url,
      lossless: { type: 'boolean' },
      mime_type: str,
      codec: nullable(str),
      bitrate: nullable({ type: 'integer', minimum: 1, description: 'bits per second' }),
      stream_url: nullable(url),
    }),
    OmLyrics: obj({ text: str, language: str }),
    OmSong: resource(
      'songs',
      obj({
        name: str,
        album_name: nullable(str),
        artist_name: nullable(str),
        isrc: nullable(str),
        artwork_url: nullable(artwork),
        track_number: nullable(int),
        disc_number: nullable(int),
        genres: strings,
        release_date: nullable(date),
      }),
      { albums: arrayOf('OmAlbum'), artists: arrayOf('OmArtist'), lyrics: ref('OmLyrics') },
      { instance: obj({ duration_in_ms: int, files: arrayOf('OmFile'), has_lyrics: { type: 'boolean' } }) },
    ),
    OmAlbum: resource(
      'albums',
      obj({
        name: str,
        artist_name: nullable(str),
        upc: nullable(str),
        artwork_url: nullable(artwork),
        track_count: nullable(int),
        genres: strings,
        release_date: nullable(date),
      }),
      { tracks: arrayOf('OmSong'), artists: arrayOf('OmArtist') },
    ),
    OmArtist: resource('artists', obj({ name: str, artwork_url: nullable(artwork), genres: strings }), {
      albums: arrayOf('OmAlbum'),
      songs: arrayOf('OmSong'),
    }),
    OmPlaylist: resource(
      'playlists',
      obj({ name: str, curator_name: str, description: nullable(str), artwork_url: nullable(artwork), genres: strings }),
      { tracks: arrayOf('OmSong') },
      {},
      false,
    ),
    OmStation: resource(
      'stations',
      obj({
        name: str,
        seed: {
          oneOf: [
            obj({ kind: { const: 'artist' }, artist: obj({ id: str, type: { const: 'artists' }, meta }) }),
            obj({ kind: { const: 'genre' }, genre: str }),
            obj({ kind: { const: 'popular' } }),
          ],
        },
        description: nullable(str),
        artwork_url: nullable(artwork),
        genres: strings,
      }),
      { tracks: arrayOf('OmSong') },
      {},
      false,
    ),
    OmListMeta: obj({ limit: { type: 'integer', minimum: 1, maximum: 25 }, offset: int, has_next_page: { type: 'boolean' } }),
    ...Object.fromEntries(
      ['Song', 'Album', 'Artist', 'Playlist', 'Station'].flatMap((t) => [
        [`Om${t}Single`, obj({ data: ref(`Om${t}`) })],
        [`Om${t}List`, obj({ data: arrayOf(`Om${t}`), meta: ref('OmListMeta') })],
      ]),
    ),
    OmLyricsSingle: obj({ data: ref('OmLyrics') }),
    OmSearch: obj({
      data: obj(
        {
          top: { type: 'array', maxItems: 10, items: { anyOf: [ref('OmSong'), ref('OmAlbum'), ref('OmArtist'), ref('OmPlaylist')] } },
          songs: arrayOf('OmSong'),
          albums: arrayOf('OmAlbum'),
          artists: arrayOf('OmArtist'),
          playlists: arrayOf('OmPlaylist'),
          stations: arrayOf('OmStation'),
        },
        [],
      ),
    }),
    OmInfo: obj({
      data: obj({
        branding: obj({
          name: str,
          email: { type: 'string', format: 'email' },
          logo: nullable(url),
          short_name: nullable(str),
          theme: nullable(str),
          homepage: nullable(url),
        }),
        openmusic: obj({
          version: str,
          capabilities: obj(
            Object.fromEntries(
              ['info', 'search', 'song', 'download', 'stream', 'albums', 'artists', 'playlists', 'stations', 'sort', 'lyrics'].map((c) => [
                c,
                { type: 'boolean' },
              ]),
            ),
          ),
        }),
      }),
    }),
    OmError: obj({ error: obj({ code: { type: 'integer', minimum: 400, maximum: 599 }, title: str, message: str, trace_id: str }) }),
  };
}
