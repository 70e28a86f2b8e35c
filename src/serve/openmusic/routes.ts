import type { Handler } from '../context.js';
import type { Router } from '../router.js';
import { SERVICE_NAME } from '../../interfaces/service-info.js';
import { getOne, listOrLookup, relatedOf, songLyrics } from './resource-handlers.js';
import { searchBuckets, searchOfType } from './search-handlers.js';
import { artistStationGet, artistStationTracks, genreStationGet, genreStationTracks, popularStationGet, popularStationTracks } from './station-handlers.js';

/** The `branding` of the OpenMusic info endpoint (configurable: `omm serve --brand-*`). */
export interface Branding {
  readonly name: string;
  readonly email: string;
  readonly logo: string | null;
  readonly short_name: string | null;
  readonly theme: string | null;
  readonly homepage: string | null;
}

/** `.invalid` is reserved (RFC 2606): a deployment sets its own address. */
export const DEFAULT_BRANDING: Branding = { name: SERVICE_NAME, email: 'catalog@example.invalid', logo: null, short_name: null, theme: null, homepage: null };

export const OPENMUSIC_VERSION = '1.0.0';

/** Every interface-2 endpoint (document 2 and the rest of the OpenMusic standard) under `prefix`. */
export function registerOpenMusic(router: Router<Handler>, prefix: string, branding: Branding = DEFAULT_BRANDING): void {
  const add = (path: string, handler: Handler) => router.add(`${prefix}${path}`, 'openmusic', handler);
  const info = {
    data: {
      branding,
      openmusic: {
        version: OPENMUSIC_VERSION,
        capabilities: {
          info: true,
          search: true,
          song: true,
          download: true,
          stream: true,
          albums: true,
          artists: true,
          playlists: true,
          stations: true,
          sort: true,
          lyrics: true,
        },
      },
    },
  };
  add('/', ({ query }) => {
    query.check();
    return info;
  });

  add('/songs', listOrLookup('songs'));
  add('/songs/:id', getOne('songs'));
  add('/songs/:id/rel/albums', relatedOf('songs', 'albums'));
  add('/songs/:id/rel/artists', relatedOf('songs', 'artists'));
  add('/songs/:id/rel/lyrics', songLyrics);

  add('/albums', listOrLookup('albums'));
  add('/albums/:id', getOne('albums'));
  add('/albums/:id/rel/tracks', relatedOf('albums', 'tracks'));
  add('/albums/:id/rel/artists', relatedOf('albums', 'artists'));

  add('/artists', listOrLookup('artists'));
  add('/artists/:id', getOne('artists'));
  add('/artists/:id/rel/albums', relatedOf('artists', 'albums'));
  add('/artists/:id/rel/songs', relatedOf('artists', 'songs'));

  add('/playlists', listOrLookup('playlists'));
  add('/playlists/:id', getOne('playlists'));
  add('/playlists/:id/rel/tracks', relatedOf('playlists', 'tracks'));

  add('/stations/artist/:id', artistStationGet);
  add('/stations/artist/:id/rel/tracks', artistStationTracks);
  add('/stations/genre/:genre', genreStationGet);
  add('/stations/genre/:genre/rel/tracks', genreStationTracks);
  add('/stations/popular', popularStationGet);
  add('/stations/popular/rel/tracks', popularStationTracks);

  add('/search', searchBuckets);
  add('/search/songs', searchOfType('song'));
  add('/search/albums', searchOfType('album'));
  add('/search/artists', searchOfType('artist'));
  add('/search/playlists', searchOfType('playlist'));
}
