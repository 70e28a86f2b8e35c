import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../src/catalog/catalog.js';
import { compileCatalog } from '../src/compile/index.js';
import { generateCatalog } from '../src/generate/generate.js';
import { TAIL_ARTISTS } from '../src/generate/heavy-tail.js';
import { SearchIndex } from '../src/index-format/search/search-index.js';
import { searchIndex } from '../src/search/search-engine.js';
import { readRawTable, tempDir } from './helpers/raw-fixture.js';
import { qs, serveRaw, type TestServer } from './helpers/server.js';

const count = <T>(items: readonly T[], key: (item: T) => string) => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
};

describe('omm generate --heavy-tail', () => {
  it('leaves the catalog without it byte for byte as it was (the digest of seed 7, 3,000 songs, before the option existed)', async () => {
    const dir = tempDir();
    await generateCatalog({ songs: 3000, seed: 7, out: dir });
    const all = createHash('sha256');
    for (const file of readdirSync(dir).sort()) all.update(readFileSync(join(dir, file)));
    expect(all.digest('hex')).toBe('74665893875247351e2de638bdeded099295185560b437251b1bbd37270378b7');
  });

  describe('on a catalog of 60,000 songs', () => {
    const songs = 60_000;
    let raw: string;
    let server: TestServer;
    beforeAll(async () => {
      raw = tempDir('omm-tail-');
      await generateCatalog({ songs, seed: 3, out: raw, heavyTail: true });
      server = await serveRaw(raw, { validate: false });
    }, 240_000);
    afterAll(() => server?.close());

    it("has a real catalog's tail: a generic title on hundreds of songs, covers, artists on percents of songs, box sets", () => {
      const rows = readRawTable(raw, 'songs');
      expect(rows).toHaveLength(songs);
      const titles = count(rows, (s) => s.name);
      expect(titles.get('Intro')).toBeGreaterThan(songs / 250);
      expect(titles.get('Silent Night')).toBeGreaterThan(songs / 2000);
      const artists = readRawTable(raw, 'artists');
      const byName = new Map(artists.map((a) => [a.name, a.id]));
      for (const name of TAIL_ARTISTS) expect(byName.has(name), name).toBe(true);
      const credits = count(readRawTable(raw, 'song_artists'), (c) => c.artist_id);
      expect(credits.get(byName.get('Traditional')!)).toBeGreaterThan(songs / 100);
      expect(credits.has(byName.get('Various Artists')!)).toBe(false);
      const tracks = count(readRawTable(raw, 'album_tracks'), (t) => t.album_id);
      expect(Math.max(...tracks.values())).toBeGreaterThanOrEqual(100);
      const boxArtists = readRawTable(raw, 'album_artists').filter((a) => (tracks.get(a.album_id) ?? 0) >= 100);
      expect(new Set(boxArtists.map((a) => a.artist_id))).toEqual(new Set([byName.get('Various Artists')]));
    });

    it('serves the tail: totals of a shared title, an artist on thousands of songs, a box set paged to its end', async () => {
      const rows = readRawTable(raw, 'songs');
      const intro = rows.filter((s) => /(^| )Intro( |$)/.test(s.name)).length;
      const search = await server.get(`/v1/search?${qs({ term: 'intro', types: 'song', limit: 5 })}`);
      expect(search.body.songs.meta.total).toBe(Math.min(intro, 1000));
      expect(search.body.songs.data).toHaveLength(5);

      const traditional = readRawTable(raw, 'artists').find((a) => a.name === 'Traditional')!;
      const credited = readRawTable(raw, 'song_artists').filter((c) => c.artist_id === traditional.id).length;
      const page = await server.get(`/v1/artist/${traditional.id}/rel/tracks?limit=10`);
      expect(page.status).toBe(200);
      expect(page.body.meta.total).toBe(credited);

      const tracks = count(readRawTable(raw, 'album_tracks'), (t) => t.album_id);
      const [box, size] = [...tracks].sort((a, b) => b[1] - a[1])[0];
      const ids: string[] = [];
      for (let offset = 0; offset < size; offset += 100) {
        const part = await server.get(`/v1/album/${box}/rel/tracks?${qs({ limit: 100, offset })}`);
        expect(part.status).toBe(200);
        ids.push(...part.body.data.map((d: { id: string }) => d.id));
      }
      expect(ids).toHaveLength(size);
    });

    it("matches a generic title to the right artist's recording among hundreds of the same name", async () => {
      const rows = readRawTable(raw, 'songs');
      const artistName = new Map(readRawTable(raw, 'artists').map((a) => [a.id, a.name]));
      const mainArtist = new Map<string, string>();
      for (const c of readRawTable(raw, 'song_artists')) if (c.position === '1') mainArtist.set(c.song_id, artistName.get(c.artist_id)!);
      const silent = rows.filter((s) => s.name === 'Silent Night');
      expect(silent.length).toBeGreaterThan(10);
      for (const song of silent.slice(0, 10)) {
        const artist = mainArtist.get(song.id)!;
        const reply = await server.get(`/v1/match/song?${qs({ name: song.name, artist })}`);
        expect(reply.status, `${song.name} / ${artist}`).toBe(200);
        const { name, artistName } = reply.body.data.attributes;
        expect(name).toBe('Silent Night');
        expect(artistName.startsWith(artist), artistName).toBe(true);
      }
    });

    it("answers the tail's common words and prefixes from stored pages exactly as the live engine does", async () => {
      const dist = tempDir('omm-tail-dist-');
      await compileCatalog({ rawDir: raw, outDir: dist });
      const cat = Catalog.open(dist);
      try {
        const stored = cat.search('song');
        const live = new SearchIndex(cat.snapshot.blob('search.songs'));
        // The tail's words are common enough to have pages stored at compile time.
        for (const word of ['intro', 'traditional']) expect(stored.firstPages!.page(live.termId(word)), word).not.toBeNull();
        const terms = ['intro', 'silent night', 'ave maria', 'traditional', 'bach', 'in', 'int', 'intro si', 'silent n', 'love intro', 'mozart'];
        for (const term of terms)
          for (const need of [5, 10, 25]) {
            const answer = (index: SearchIndex) => {
              const { hits, total } = searchIndex(index, term, { need });
              return { hits, total };
            };
            expect(answer(stored), `${term} ${need}`).toEqual(answer(live));
          }
      } finally {
        cat.close();
      }
    });
  });
});
