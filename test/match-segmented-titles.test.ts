import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../src/catalog/catalog.js';
import { matchCorpus } from '../src/search/match/corpus-of.js';
import { matchTitle } from '../src/search/match/match-text.js';
import { matchResource } from '../src/search/match/matcher.js';
import { EXACT_TITLE_SCAN } from '../src/search/match/title-candidates.js';
import { tempDir } from './helpers/raw-fixture.js';
import { writeCreditedRaw } from './helpers/credited-raw.js';
import { baseAndDelta } from './helpers/segmented-fixture.js';

// The matcher's first candidates over a base and a delta (segmented-titles.ts): "Intro" on more
// songs than the first scan reads (EXACT_TITLE_SCAN), so the base answers from its name groups.
// The delivery takes out every 30th of the base's (hidden there), re-ranks every 40th (the delta
// holds them, the base's are hidden) and adds 60 new ones among the most popular: the first
// EXACT_TITLE_SCAN in service then reach about 100 documents past the base's own window.
// "Zeta Nine" is credited on every 9th "Intro" around that edge, fewer than the 40 candidates a
// scan takes: which of them are within the scan decides its answer. Every credit gets the
// candidates the full compile of the same catalog gives: the same songs, in the same order, with
// the same flags.
const INTROS = EXACT_TITLE_SCAN + 900;
const ARTISTS = ['Blue Moon', 'Red Sun', 'Gold Stone', 'River', 'Blue River', 'Moon Stone', 'Zeta Nine'];

interface Song {
  id: string;
  name: string;
  artist: number;
  popularity: number;
  /** Its track number on its artist's album, fixed: a song taken out renumbers no other. */
  track: number;
}

const introArtist = (i: number) => (i >= EXACT_TITLE_SCAN - 20 && i < EXACT_TITLE_SCAN + 250 && i % 9 === 0 ? 6 : i % 6);

function baseSongs(): Song[] {
  const songs: Song[] = [];
  for (let i = 0; i < INTROS; i++) songs.push({ id: `s${i}`, name: 'Intro', artist: introArtist(i), popularity: 1_000_000 - i * 10, track: i + 1 });
  for (let i = 0; i < 300; i++) songs.push({ id: `o${i}`, name: `Other ${i}`, artist: i % 7, popularity: 500_000 - i, track: 10_001 + i });
  return songs;
}

function deliveredSongs(): Song[] {
  const intro = (s: Song) => (s.id.startsWith('s') ? Number(s.id.slice(1)) : -1);
  const songs = baseSongs()
    .filter((s) => intro(s) % 30 !== 5)
    .map((s) => (intro(s) % 40 === 3 ? { ...s, popularity: s.popularity + 35 } : s));
  for (let i = 0; i < 60; i++) songs.push({ id: `n${i}`, name: 'Intro', artist: i % 7, popularity: 1_000_005 - i * 1_000, track: 20_001 + i });
  return songs;
}

function writeRaw(dir: string, songs: Song[]): void {
  writeCreditedRaw(
    dir,
    ARTISTS,
    songs.map((s) => ({ ...s, artists: [s.artist] })),
  );
}

describe('the first candidates of a title over a base and a delta', () => {
  const root = tempDir('omm-match-segments-');
  let full: Catalog;
  let seg: Catalog;
  let close: () => void;

  beforeAll(async () => {
    ({ full, seg, close } = await baseAndDelta(
      root,
      (dir) => writeRaw(dir, baseSongs()),
      (dir) => writeRaw(dir, deliveredSongs()),
    ));
  }, 120_000);
  afterAll(() => close());

  const described = (cat: Catalog, credit: string | null) => {
    const { candidates, verified, partial } = matchCorpus(cat, 'song').exactTitleCandidates(matchTitle('Intro'), credit);
    const list = [...candidates].sort((a, b) => a[1] - b[1]).map(([ordinal, rank]) => `${cat.song(ordinal).id}@${rank}`);
    return { list, verified, partial };
  };

  it("are the full compile's, for every credit and none", () => {
    expect(seg.snapshot.manifest.segments?.length).toBe(2);
    // The base answers from its name groups: "Intro" is one of them.
    const base = seg.searchParts('song')![0].index;
    expect(base.firstPages?.nameGroups()?.holdingAll(base.exactNameRange('intro').from, [base.termId('blue')], 5)?.length).toBe(5);
    const credits = [null, ...ARTISTS, 'Blue', 'Stone', 'Zeta Nine & Blue Moon', 'Nobody Here'];
    for (const credit of credits) {
      const want = described(full, credit);
      if (credit === null || ARTISTS.includes(credit)) expect(want.list.length, `${credit}`).toBeGreaterThan(0);
      expect(described(seg, credit), `${credit}`).toEqual(want);
      const a = matchResource(seg, 'song', { name: 'Intro', artist: credit ?? undefined });
      const b = matchResource(full, 'song', { name: 'Intro', artist: credit ?? undefined });
      expect(a && `${seg.song(a.ordinal).id} ${a.score}`, `${credit}`).toBe(b && `${full.song(b.ordinal).id} ${b.score}`);
    }
  });
});
