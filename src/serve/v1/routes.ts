import type { Handler } from '../context.js';
import type { Router } from '../router.js';
import { catalogGet, catalogList, lookupGet, lookupList, stats } from './catalog-handlers.js';
import { explore } from './explore-handler.js';
import { match } from './match-handler.js';
import { search } from './search-handler.js';
import { getOne, listAll, lookup, relatedOf } from './resource-handlers.js';
import { stationByGenre, stationBySeed, stationGet, stationPopular, stationTracks } from './station-handlers.js';

/** Every interface-1 endpoint of document 1, under `prefix` (default /v1). */
export function registerV1(router: Router<Handler>, prefix: string): void {
  const add = (path: string, handler: Handler) => router.add(`${prefix}${path}`, 'v1', handler);
  add('/', stats);

  add('/stations/popular', stationPopular);
  add('/stations/genres/:name', stationByGenre);
  add('/stations/:type/:id', stationBySeed);
  add('/station/:id', stationGet);
  add('/station/:id/tracks', stationTracks);

  add('/playlists', listAll('playlist'));
  add('/playlists/lookup', lookup('playlist'));
  add('/playlist/:id', getOne('playlist'));
  add('/playlist/:id/rel/tracks', relatedOf('playlist', 'tracks')); // in the reference, not in document 1

  add('/artists', listAll('artist'));
  add('/artists/lookup', lookup('artist'));
  add('/artist/:id', getOne('artist'));
  add('/artist/:id/rel/tracks', relatedOf('artist', 'tracks'));
  add('/artist/:id/rel/albums', relatedOf('artist', 'albums'));

  add('/albums', listAll('album'));
  add('/albums/lookup', lookup('album'));
  add('/album/:id', getOne('album'));
  add('/album/:id/rel/tracks', relatedOf('album', 'tracks'));
  add('/album/:id/rel/artists', relatedOf('album', 'artists'));

  add('/songs', listAll('song'));
  add('/songs/lookup', lookup('song'));
  add('/song/:id', getOne('song'));
  add('/song/:id/rel/albums', relatedOf('song', 'albums'));
  add('/song/:id/rel/artists', relatedOf('song', 'artists')); // in the reference, not in document 1

  add('/catalog', catalogList);
  add('/catalog/:id', catalogGet);
  add('/lookup', lookupList);
  add('/lookup/:id', lookupGet);
  add('/explore', explore);
  add('/search', search);
  add('/match/:type', match);
}
