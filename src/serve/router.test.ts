import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import { Router } from './router.js';

describe('Router', () => {
  const router = new Router<string>()
    .add('/v1/', 'v1', 'root')
    .add('/v1/song/:id', 'v1', 'song')
    .add('/v1/stations/popular', 'v1', 'popular')
    .add('/v1/stations/:type/:id', 'v1', 'station')
    .add('/v1/stations/:type', 'v1', 'stations');

  it('matches segments, static before parameter, with a trailing slash or not', () => {
    expect(router.match('/v1/song/123')).toMatchObject({ handler: 'song', params: { id: '123' }, pattern: '/v1/song/:id' });
    expect(router.match('/v1/song/123/')).toMatchObject({ handler: 'song', params: { id: '123' } });
    expect(router.match('/v1/stations/popular')?.handler).toBe('popular');
    expect(router.match('/v1/stations/genre/rock')).toMatchObject({ handler: 'station', params: { type: 'genre', id: 'rock' } });
    expect(router.match('/v1/stations/genre')).toMatchObject({ handler: 'stations', params: { type: 'genre' } });
    expect(router.match('/v1/')?.handler).toBe('root');
  });

  it('does not match other paths, or paths that do not start with a slash', () => {
    for (const path of ['/v1/song', '/v1/song/1/2', '/v2/song/1', 'v1/song/1', 'x/v1/song/1', '*', '', '/v1//song/1'])
      expect(router.match(path), path).toBeNull();
  });

  it('percent-decodes parameters, and answers 400 to a malformed escape', () => {
    expect(router.match('/v1/song/caf%C3%A9%2F1')?.params.id).toBe('café/1');
    expect(router.match('/v1/song/a+b')?.params.id).toBe('a+b');
    expect(() => router.match('/v1/song/%E0%A4%A')).toThrow(ApiError);
  });
});
