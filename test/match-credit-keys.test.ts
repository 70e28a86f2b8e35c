import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../src/catalog/catalog.js';
import { COMMON_SCAN, EXACT_TITLE_SCAN } from '../src/search/match/title-candidates.js';
import { matchResource } from '../src/search/match/matcher.js';
import { numbered, type Song, writeCreditedRaw } from './helpers/credited-raw.js';
import { baseAndDelta } from './helpers/segmented-fixture.js';
import { tempDir } from './helpers/raw-fixture.js';

// The matcher's credit keys (search-keys.ts, creditKey): "Love" by "Forever" and "Night", the
// least popular of thousands of songs titled "Love". Its word sets, {love, forever} and {love,
// night}, each hold more than COMMON_SCAN songs more popular than it ("Love" by "Forever Love"
// and by "Night Love"), the title more than EXACT_TITLE_SCAN, and each of its artists has 600
// songs named before it (an artist's songs are listed by name), past the works the typo pass
// reads, and 500 more popular songs hold every word of the title and credit: only the songs titled
// "Love" by an artist named "Forever" (one) find it.
const SHARING = COMMON_SCAN + 200;
const ARTISTS = ['Forever', 'Night', 'Forever Love', 'Night Love'];

function songsOf(extra: Song[] = []): Song[] {
  const songs: Song[] = [];
  for (let i = 0; i < SHARING; i++) songs.push({ name: 'Love', artists: [2], popularity: 100_000 - i });
  for (let i = 0; i < SHARING; i++) songs.push({ name: 'Love', artists: [3], popularity: 100_000 - i });
  for (const artist of [0, 1]) for (let i = 0; i < 600; i++) songs.push({ name: `Anthem ${i}`, artists: [artist], popularity: 50_000 - i });
  // Songs holding every word of "Love Forever Night", more popular: what the searches find first.
  for (let i = 0; i < 500; i++) songs.push({ name: 'Forever Night Love', artists: [2 + (i % 2)], popularity: 40_000 - i });
  songs.push({ name: 'Love', artists: [0, 1], popularity: 10 });
  return [...songs, ...extra];
}

function writeRaw(dir: string, songs: Song[]): void {
  writeCreditedRaw(dir, ARTISTS, numbered(songs));
}

describe('a match by credit keys under a title thousands of songs share', () => {
  const root = tempDir('omm-match-credit-keys-');
  const delivered = `s${2 * SHARING + 1701}`;
  let full: Catalog;
  let seg: Catalog;
  let close: () => void;

  beforeAll(async () => {
    expect(2 * SHARING).toBeGreaterThan(EXACT_TITLE_SCAN);
    // A delivery of a more popular "Love" by the same two artists: it lives in a delta.
    ({ full, seg, close } = await baseAndDelta(
      root,
      (dir) => writeRaw(dir, songsOf()),
      (dir) => writeRaw(dir, songsOf([{ name: 'Love', artists: [1, 0], popularity: 20 }])),
    ));
  }, 120_000);
  afterAll(() => close());

  const idOf = (c: Catalog, ordinal: number | undefined) => (ordinal === undefined ? null : c.song(ordinal).id);

  it('finds the song the credit names with a perfect score', () => {
    for (const credit of ['Forever & Night', 'Night & Forever']) {
      const got = matchResource(full, 'song', { name: 'Love', artist: credit });
      expect(got?.score, credit).toBe(1);
      // The delivered one, more popular than the base's.
      expect(idOf(full, got?.ordinal), credit).toBe(delivered);
    }
  });

  it('answers over a base and a delta as the full compile', () => {
    expect(seg.snapshot.manifest.segments?.length).toBe(2);
    for (const credit of ['Forever & Night', 'Night & Forever', 'Forever', 'Night Love']) {
      const want = matchResource(full, 'song', { name: 'Love', artist: credit });
      const got = matchResource(seg, 'song', { name: 'Love', artist: credit });
      expect(got?.score, credit).toBe(want?.score);
      expect(idOf(seg, got?.ordinal), credit).toBe(idOf(full, want?.ordinal));
    }
  });
});
