import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../src/catalog/catalog.js';
import { compileCatalog } from '../src/compile/index.js';
import { matchResource } from '../src/search/match/matcher.js';
import { tempDir } from './helpers/raw-fixture.js';
import { numbered, type Song, writeCreditedRaw } from './helpers/credited-raw.js';
import { baseAndDelta } from './helpers/segmented-fixture.js';

// The matcher's keyed stage (title-candidates.ts) over a title many songs share and artists whose
// names are the same word: "Intro" by "The", "The The" and "The The The" are all keyed under the
// words {intro, the}. The one "Intro" by "The The The" is less popular than 60 others, past the
// 40 that each artist's key gives, and its artist has 600 songs named before it ("Anthem N"; an
// artist's songs are listed by name), past the 500 works the typo pass reads: only the candidates
// keyed under every credited artist's key, read further down the key, find it.
const MORE_POPULAR_INTROS = 60;
const TARGET_ARTIST_SONGS = 600;

function songsOf(extra: Song[] = []): Song[] {
  const songs: Song[] = [];
  for (let i = 0; i < MORE_POPULAR_INTROS; i++) songs.push({ name: 'Intro', artists: [i % 2], popularity: 100_000 - i });
  for (let i = 0; i < TARGET_ARTIST_SONGS; i++) songs.push({ name: `Anthem ${i}`, artists: [2], popularity: 50_000 - i });
  songs.push({ name: 'Intro', artists: [2], popularity: 1_000 });
  // Two credited together, under a key each: "Intro" by "The The" and "Rain".
  for (let i = 0; i < 45; i++) songs.push({ name: 'Intro', artists: [1], popularity: 900 - i });
  songs.push({ name: 'Intro', artists: [1, 3], popularity: 5 });
  return [...songs, ...extra];
}

function writeRaw(dir: string, songs: Song[]): void {
  writeCreditedRaw(dir, ['The', 'The The', 'The The The', 'Rain'], numbered(songs));
}

const CREDITS: [string, string][] = [
  ['The The The', 's660'],
  ['The The & Rain', 's706'],
  ['Rain & The The', 's706'],
  ['The', 's0'],
];

describe('a match among songs of one title whose artists share their words', () => {
  const root = tempDir('omm-match-keys-');
  let cat: Catalog;
  let full: Catalog;
  let seg: Catalog;
  let close: () => void;

  beforeAll(async () => {
    writeRaw(join(root, 'alone'), songsOf());
    await compileCatalog({ rawDir: join(root, 'alone'), outDir: join(root, 'alone-dist') });
    cat = Catalog.open(join(root, 'alone-dist'));
    // A delivery of more "Intro" songs by "The The", more popular: they live in a delta.
    ({ full, seg, close } = await baseAndDelta(
      root,
      (dir) => writeRaw(dir, songsOf()),
      (dir) => writeRaw(dir, songsOf(Array.from({ length: 30 }, (_, i) => ({ name: 'Intro', artists: [1], popularity: 60_000 - i })))),
    ));
  }, 120_000);
  afterAll(() => {
    cat.close();
    close();
  });

  const idOf = (c: Catalog, ordinal: number | undefined) => (ordinal === undefined ? null : c.song(ordinal).id);

  it('finds the song the credit names with a perfect score, however far down the shared key it is', () => {
    for (const [credit, id] of CREDITS) {
      const got = matchResource(cat, 'song', { name: 'Intro', artist: credit });
      expect(got?.score, credit).toBe(1);
      expect(idOf(cat, got?.ordinal), credit).toBe(id);
    }
  });

  it('answers over a base and a delta as the full compile of the same catalog', () => {
    expect(seg.snapshot.manifest.segments?.length).toBe(2);
    for (const [credit] of CREDITS) {
      const want = matchResource(full, 'song', { name: 'Intro', artist: credit });
      const got = matchResource(seg, 'song', { name: 'Intro', artist: credit });
      expect(got?.score, credit).toBe(want?.score);
      expect(idOf(seg, got?.ordinal), credit).toBe(idOf(full, want?.ordinal));
    }
  });
});

// Over segments the keys' documents of each segment are merged by popularity: the first perfect
// one in merged order is the answer. 50 "Intro" songs by "The" and "Rain" (more popular, never
// perfect for "The The & Rain") fill the first stage; the perfect "Intro" by "The The" and "Rain"
// of popularity 7 is in the base, a less popular one of popularity 3 comes with a delivery.
describe('a match down the shared keys of a base and a delta', () => {
  const root = tempDir('omm-match-keys-merge-');
  const base: Song[] = [
    ...Array.from({ length: 50 }, (_, i) => ({ name: 'Intro', artists: [0, 3], popularity: 10_000 - i })),
    { name: 'Intro', artists: [1, 3], popularity: 7 },
  ];
  let full: Catalog;
  let seg: Catalog;
  let close: () => void;

  beforeAll(async () => {
    ({ full, seg, close } = await baseAndDelta(
      root,
      (dir) => writeRaw(dir, base),
      (dir) => writeRaw(dir, [...base, { name: 'Intro', artists: [1, 3], popularity: 3 }]),
    ));
  }, 120_000);
  afterAll(() => close());

  it('answers the more popular perfect song, in the base, before the one in the delta', () => {
    expect(seg.snapshot.manifest.segments?.length).toBe(2);
    for (const credit of ['The The & Rain', 'Rain & The The']) {
      const want = matchResource(full, 'song', { name: 'Intro', artist: credit });
      const got = matchResource(seg, 'song', { name: 'Intro', artist: credit });
      expect(want?.score, credit).toBe(1);
      expect(full.song(want!.ordinal).id, credit).toBe('s50');
      expect(got?.score, credit).toBe(1);
      expect(seg.song(got!.ordinal).id, credit).toBe('s50');
    }
  });
});
