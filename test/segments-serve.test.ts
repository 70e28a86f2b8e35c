import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../src/catalog/catalog.js';
import type { AlbumRecord, ArtistRecord, PlaylistRecord, SongRecord } from '../src/catalog/records.js';
import { tempDir } from './helpers/raw-fixture.js';
import { OM_SORT, serveSide, type Side } from './helpers/served-side.js';
import { segmentedFixture } from './helpers/segmented-fixture.js';

// Both interfaces served from a base and two deltas answer, request by request, what the full
// compile of the same raw catalog answers: every kind of endpoint, build ids and request ids aside.

const IGNORED = new Set(['buildId', 'build_id', 'requestId', 'trace_id']);
const normalised = (text: string) => (text.length === 0 ? '' : JSON.stringify(JSON.parse(text), (key, value) => (IGNORED.has(key) ? undefined : value)));
const every = <T>(list: T[], step: number) => list.filter((_, i) => i % step === 0);
const q = encodeURIComponent;

describe('a base and two deltas serve what the full compile serves', () => {
  const root = tempDir('omm-segments-serve-');
  let segmented: Side;
  let full: Side;
  let songs: SongRecord[];
  let albums: AlbumRecord[];
  let artists: ArtistRecord[];
  let playlists: PlaylistRecord[];

  beforeAll(async () => {
    const fixture = await segmentedFixture(root, { songs: 2000, seed: 11 });
    const cat = Catalog.open(fixture.fulls[1]);
    const all = <T>(type: 'song' | 'album' | 'artist' | 'playlist') => Array.from({ length: cat.count(type) }, (_, o) => cat.records(type).get<T>(o));
    [songs, albums, artists, playlists] = [all<SongRecord>('song'), all<AlbumRecord>('album'), all<ArtistRecord>('artist'), all<PlaylistRecord>('playlist')];
    cat.close();
    [segmented, full] = await Promise.all([serveSide(fixture.dist), serveSide(fixture.fulls[1])]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([segmented?.server.close(), full?.server.close()]);
  });

  /** Every request of the sample, answered by both; the differences listed. Most of the sample must be answered 200. */
  async function differences(paths: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    let ok = 0;
    for (const path of paths) {
      const [a, b] = await Promise.all([segmented.get(path), full.get(path)]);
      if (b.status === 200) ok++;
      const [left, right] = [normalised(a.text), normalised(b.text)];
      if (a.status !== b.status || left !== right) out.push(`${path}: ${a.status} ${left.slice(0, 300)}\n  full compile: ${b.status} ${right.slice(0, 300)}`);
    }
    if (ok < paths.length * 0.9) out.push(`only ${ok} of ${paths.length} answered 200`);
    return out.slice(0, 12);
  }

  it('resources, relationships and includes, by id, catalog id, ISRC and UPC', async () => {
    const paths: string[] = ['/v1', '/openmusic', '/v1/song/sNew1x1', '/v1/song/sNew2x4?include=albums,artists', '/v1/artist/arNew2?include=albums'];
    for (const s of [...every(songs, 23), ...songs.filter((x) => /Remastered|New/.test(x.name))])
      paths.push(`/v1/song/${s.id}?include=albums,artists`, `/v1/catalog/omm:song:${s.ommId}`, `/openmusic/songs/${s.ommId}?include=albums,artists`);
    for (const s of every(
      songs.filter((x) => x.isrc),
      40,
    ))
      paths.push(`/v1/songs/lookup?isrc=${s.isrc}`, `/openmusic/songs?isrc=${s.isrc}`);
    for (const a of every(albums, 5))
      paths.push(`/v1/album/${a.id}?include=tracks,artists`, `/openmusic/albums/${a.ommId}?include=tracks`, `/v1/album/${a.id}/rel/tracks?limit=3&offset=1`);
    for (const a of every(
      albums.filter((x) => x.upc),
      9,
    ))
      paths.push(`/v1/albums/lookup?upc=${a.upc}`);
    for (const a of every(artists, 4))
      paths.push(`/v1/artist/${a.id}?include=albums`, `/v1/artist/${a.id}/rel/tracks?limit=7&offset=2`, `/openmusic/artists/${a.ommId}/rel/songs?limit=5`);
    for (const p of playlists) paths.push(`/v1/playlist/${p.id}?include=tracks`, `/openmusic/playlists/${p.id}/rel/tracks?limit=50`);
    expect(await differences(paths)).toEqual([]);
  });

  it('lists in every order, pages and counts, explore, stations and genres', async () => {
    const paths: string[] = [
      '/v1/explore',
      '/v1/explore?limit=3&offset=2',
      '/v1/playlists?limit=100',
      '/v1/stations/popular',
      '/v1/station/popular/tracks?limit=100',
    ];
    for (const sort of ['name', '-name', '-dateAdded', 'releaseDate']) {
      for (const offset of [0, 25, 900, 1900])
        paths.push(`/v1/songs?sort=${sort}&limit=25&offset=${offset}`, `/openmusic/songs?sort=${OM_SORT[sort]}&limit=25&offset=${offset}`);
      for (const offset of [0, 150, 380]) paths.push(`/v1/albums?sort=${sort}&limit=20&offset=${offset}`);
      if (sort !== 'releaseDate') for (const offset of [0, 150, 380]) paths.push(`/v1/artists?sort=${sort}&limit=20&offset=${offset}`);
    }
    const genres = [...new Set(songs.flatMap((x) => x.genres))].slice(0, 4);
    for (const genre of genres.map(q)) paths.push(`/v1/stations/genres/${genre}`, `/openmusic/songs?filter%5Bgenres%5D=${genre}&limit=25&offset=10`);
    for (const a of every(artists, 9)) paths.push(`/v1/station/artist-${a.id}/tracks?limit=50`);
    for (const s of every(songs, 97)) paths.push(`/v1/stations/song/${s.id}`);
    expect(await differences(paths)).toEqual([]);
  });

  it('search as the explorer, the default form and clients send it, and match', async () => {
    const paths: string[] = [];
    const terms = ['love', 'the', 'lo', 'new', 'remastered', 'revisited', 'new song', 'the lo', 'love ni', 'lovr', 'remastred 1'];
    for (const s of every(
      songs.filter((x) => /Remastered|New/.test(x.name)),
      3,
    ))
      terms.push(s.name, s.name.split(' ')[0].slice(0, 2));
    for (const term of terms.map(q)) {
      paths.push(
        `/v1/search?term=${term}&types=song,album,artist,playlist&limit=5`,
        `/v1/search?term=${term}`,
        `/v1/search?term=${term}&types=song&limit=10&offset=20`,
        `/openmusic/search?term=${term}`,
        `/openmusic/search/songs?term=${term}&limit=10`,
      );
    }
    for (const s of every(songs, 61)) {
      const artist = q(s.artistNames[0] ?? '');
      paths.push(`/v1/match/song?name=${q(s.name)}&artist=${artist}`, `/v1/match/song?name=${q(s.name.slice(1))}&artist=${artist}`);
    }
    for (const a of every(albums, 31)) paths.push(`/v1/match/album?name=${q(a.name)}`);
    for (const a of every(artists, 17)) paths.push(`/v1/match/artist?name=${q(a.name)}`);
    expect(await differences(paths)).toEqual([]);
  });
});
