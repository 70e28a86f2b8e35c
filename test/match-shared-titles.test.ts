import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { Catalog } from '../src/catalog/catalog.js';
import { NAME_GROUP_SCAN } from '../src/index-format/search/name-groups.js';
import { NAME_RUN_MIN } from '../src/index-format/search/name-runs.js';
import { artistSet } from '../src/search/match/match-text.js';
import { IndexCorpus } from '../src/search/match/index-corpus.js';
import { matchResource } from '../src/search/match/matcher.js';
import { artistSetScoreIsOne, normalArtistNames } from '../src/search/match/scoring.js';
import { takedown } from '../src/takedown/takedown.js';
import { tempDir } from './helpers/raw-fixture.js';

// A title thousands of songs share, past the matcher's first scan: "Intro" on 5,400 songs, the
// 5,000 most popular by artists 0-49, the rest by artists 50-59 only (some with a second artist).
const INTRO = 5_400;
const OTHERS = 600;
const WORDS = ['Blue', 'Moon', 'Red', 'Sun', 'Gold', 'Stone', 'River'];
const artistName = (i: number) =>
  i < 50 ? `${WORDS[i % 7]} ${WORDS[(i * 3 + 1) % 7]} ${i % 5}` : `Zeta ${['One', 'Two', 'Three', 'Four', 'Five'][i % 5]} ${i}`;
const introArtist = (i: number) => (i < NAME_GROUP_SCAN ? i % 50 : 50 + (i % 10));
const secondArtist = (i: number, first: number) => ((i * 7) % 50 === first ? (first + 1) % 50 : (i * 7) % 50);

function writeRaw(dir: string): void {
  const rows = (header: string, n: number, row: (i: number) => string) => `${[header, ...Array.from({ length: n }, (_, i) => row(i))].join('\n')}\n`;
  const songs = INTRO + OTHERS;
  writeFileSync(
    join(dir, 'artists.csv'),
    rows('id,name,popularity', 60, (i) => `ar${i},${artistName(i)},${i}`),
  );
  writeFileSync(
    join(dir, 'albums.csv'),
    rows('id,name,release_date', 60, (i) => `al${i},Album ${i},${1990 + (i % 30)}`),
  );
  writeFileSync(
    join(dir, 'album_artists.csv'),
    rows('album_id,artist_id', 60, (i) => `al${i},ar${i}`),
  );
  // Popularity falls with i: the Intro songs of artists 50-59 are the least popular of the title.
  const title = (i: number) => (i < INTRO ? 'Intro' : i % 2 === 0 ? `Outro ${i % 40}` : 'Night');
  writeFileSync(
    join(dir, 'songs.csv'),
    rows('id,name,duration_ms,popularity', songs, (i) => `s${i},${title(i)},${150000 + i},${songs - i}`),
  );
  const artistOf = (i: number) => (i < INTRO ? introArtist(i) : i % 60);
  writeFileSync(
    join(dir, 'album_tracks.csv'),
    rows('album_id,song_id,track_number', songs, (i) => `al${i % 60},s${i},${Math.floor(i / 60) + 1}`),
  );
  const credits = ['song_id,artist_id,position'];
  for (let i = 0; i < songs; i++) {
    credits.push(`s${i},ar${artistOf(i)},0`);
    if (i % 3 === 0) credits.push(`s${i},ar${secondArtist(i, artistOf(i))},1`);
  }
  writeFileSync(join(dir, 'song_artists.csv'), `${credits.join('\n')}\n`);
}

/** What the matcher promises for a title and credit some song has exactly: the most popular song of that title whose artists score 1. */
function mostPopularPerfect(cat: Catalog, name: string, credit: string): number | null {
  const ranks = cat.rank('song', 'popularity');
  const credited = artistSet(credit);
  let best: number | null = null;
  for (let o = 0; o < cat.records('song').count; o++) {
    if (cat.isDeleted('song', o)) continue;
    const song = cat.song(o);
    if (song.name !== name || !artistSetScoreIsOne(credited, normalArtistNames(song.artistNames))) continue;
    if (best === null || ranks[o] < ranks[best]) best = o;
  }
  return best;
}

describe('a title thousands of songs share', () => {
  let raw: string;
  let cat: Catalog;
  beforeAll(async () => {
    raw = tempDir();
    writeRaw(raw);
    const dist = tempDir();
    await compileCatalog({ rawDir: raw, outDir: dist });
    cat = Catalog.open(dist);
  });
  afterAll(() => cat.close());

  it('finds the run of every name by hash as the binary search does', () => {
    for (const type of ['song', 'artist', 'album'] as const) {
      const index = cat.search(type);
      const order = index.u32('names.order');
      const names = new Set(Array.from(order, (rank) => index.name(rank)));
      const runs = index.firstPages!.nameRuns()!;
      let hashed = 0;
      const find = runs.find.bind(runs);
      runs.find = (name, startsRun) => {
        const run = find(name, startsRun);
        if (run) hashed++;
        return run;
      };
      const withRuns = [...names, 'no such name', 'intr'].map((n) => index.exactNameRange(n));
      const pages = index.firstPages!;
      const nameRuns = pages.nameRuns;
      pages.nameRuns = () => null;
      const searched = [...names, 'no such name', 'intr'].map((n) => index.exactNameRange(n));
      pages.nameRuns = nameRuns;
      expect(withRuns).toEqual(searched);
      const held = [...names].filter((n) => {
        const r = searched[[...names].indexOf(n)];
        return r.to - r.from >= NAME_RUN_MIN;
      });
      expect(hashed).toBe(held.length);
    }
    expect(cat.search('song').exactNameRange('intro').to - cat.search('song').exactNameRange('intro').from).toBe(INTRO);
  });

  it("matches the most popular song of the title by the credited artists, past the first scan's reach", () => {
    const keyedStage = vi.spyOn(IndexCorpus.prototype, 'commonKeyedCandidates');
    const credits = [
      ...Array.from({ length: 60 }, (_, a) => artistName(a)),
      `${artistName(introArtist(5_013))} & ${artistName(secondArtist(5_013, introArtist(5_013)))}`,
    ];
    for (const credit of credits) {
      const want = mostPopularPerfect(cat, 'Intro', credit);
      expect(want, credit).not.toBeNull();
      const got = matchResource(cat, 'song', { name: 'Intro', artist: credit });
      expect(got?.score, credit).toBe(1);
      expect(got?.ordinal, credit).toBe(want);
    }
    expect(keyedStage.mock.calls.length).toBeGreaterThanOrEqual(10);
    keyedStage.mockRestore();
  });

  it('under a deletes set, passes over the taken-down song to the next', async () => {
    const credit = artistName(55);
    const first = mostPopularPerfect(cat, 'Intro', credit)!;
    const id = cat.song(first).ommId;
    const down = tempDir();
    await compileCatalog({ rawDir: raw, outDir: down });
    takedown(down, [{ kind: 'id', value: `omm:song:${id}` }]);
    const after = Catalog.open(down);
    try {
      const want = mostPopularPerfect(after, 'Intro', credit);
      expect(want).not.toBe(first);
      expect(matchResource(after, 'song', { name: 'Intro', artist: credit })?.ordinal).toBe(want);
    } finally {
      after.close();
    }
  });
});
