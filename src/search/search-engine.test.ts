import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchIndex } from '../index-format/search/search-index.js';
import { writeSearchIndex, type SearchDocuments } from '../../test/helpers/search-columns.js';
import { searchText } from '../index-format/search/search-text.js';
import { openShard } from '../index-format/shards/shard-reader.js';
import { withinOneEdit } from './one-edit.js';
import { FUZZY_BELOW, searchIndex, TIER } from './search-engine.js';

// A catalog small enough to rank by brute force, with a vocabulary small enough that words
// repeat everywhere (long postings, bitmaps, shared names, word sets held by many documents).
const VOCABULARY = ['love', 'night', 'fire', 'rain', 'gold', 'river', 'moon', 'star', 'café', 'niño', '夜', '心', 'the', 'you'];
const ARTIST_WORDS = ['black', 'keys', 'amor', 'sun', 'the', 'love', 'grupo', 'ölü'];

function prng(seed: number): () => number {
  let x = seed;
  return () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

function catalog(): { docs: SearchDocuments; artistNames: string[] } {
  const next = prng(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const artistNames = Array.from({ length: 40 }, (_, i) => (i % 5 === 0 ? `The ${pick(ARTIST_WORDS)}` : `${pick(ARTIST_WORDS)} ${pick(ARTIST_WORDS)}`));
  const count = 3000;
  const names: string[] = [];
  const offsets = new Uint32Array(count + 1);
  const targets: number[] = [];
  for (let o = 0; o < count; o++) {
    const words = 1 + Math.floor(next() * 3);
    let name = Array.from({ length: words }, () => pick(VOCABULARY)).join(' ');
    if (next() < 0.1) name += ' - Live';
    names.push(name.charAt(0).toUpperCase() + name.slice(1));
    targets.push(Math.floor(next() * artistNames.length));
    if (next() < 0.3) targets.push(Math.floor(next() * artistNames.length));
    offsets[o + 1] = targets.length;
  }
  // Popularity order: a fixed shuffle of the ordinals.
  const ordinals = Uint32Array.from({ length: count }, (_, i) => i).sort((a, b) => ((a * 7919) % count) - ((b * 7919) % count));
  return { docs: { type: 'song', ordinals, names, artists: { offsets, targets: Uint32Array.from(targets), artistNames } }, artistNames };
}

interface Doc {
  rank: number;
  name: string;
  nameTerms: Set<string>;
  artistSets: Set<string>[];
  all: Set<string>;
}

/** The documented ranking, by brute force over every document (search-engine.ts). */
function reference(docs: Doc[], dictionary: Set<string>, term: string): { rank: number; tier: number }[] {
  const normal = searchText(term);
  if (normal.length === 0) return [];
  const words = [...new Set(normal.split(' '))];
  const last = words.length - 1;
  const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
  const keys = (d: Doc) => {
    const out = [d.nameTerms];
    for (const a of d.artistSets) out.push(new Set([...d.nameTerms, ...a]));
    if (d.artistSets.length > 1) out.push(new Set([...d.nameTerms, ...d.artistSets.flatMap((a) => [...a])]));
    return out;
  };
  const tierOf = (d: Doc): number | null => {
    if (d.name === normal) return TIER.exactName;
    if (d.name.startsWith(normal)) return TIER.namePrefix;
    const wanted = new Set(words);
    if (keys(d).some((k) => sameSet(k, wanted))) return TIER.wordSet;
    const has = (w: string, i: number) => (i === last ? [...d.all].some((t) => t.startsWith(w)) : d.all.has(w));
    if (words.every(has)) return TIER.allWords;
    return null;
  };
  const exact = docs.map((d) => ({ rank: d.rank, tier: tierOf(d) })).filter((h): h is { rank: number; tier: number } => h.tier !== null);
  if (exact.length >= FUZZY_BELOW) return exact.sort((a, b) => a.tier - b.tier || a.rank - b.rank);
  // One typo per word of 4 to 32 characters.
  const length = (w: string) => [...w].length;
  const correctable = (w: string) => length(w) >= 4 && length(w) <= 32;
  const near = (w: string) => [...dictionary].filter((t) => t !== w && withinOneEdit(w, t));
  // Tier 4: each word as typed when it is a term, else a term one edit away; the set a key.
  let sets: Set<string>[] = [];
  if (words.some((w) => !dictionary.has(w)) && words.every((w) => dictionary.has(w) || (correctable(w) && near(w).length > 0))) {
    let combos: string[][] = [[]];
    for (const w of words) combos = combos.flatMap((c) => (dictionary.has(w) ? [w] : near(w)).map((t) => [...c, t]));
    sets = combos.map((c) => new Set(c));
  }
  // Tier 5: each word as typed (the last may be a prefix), else one edit away.
  const typed = (w: string, i: number) => (i === last ? [...dictionary].some((t) => t.startsWith(w)) : dictionary.has(w));
  const scan = words.some((w, i) => !typed(w, i)) && words.every((w, i) => typed(w, i) || (correctable(w) && near(w).length > 0));
  const seen = new Set(exact.map((h) => h.rank));
  const fuzzy: { rank: number; tier: number }[] = [];
  for (const d of docs) {
    if (seen.has(d.rank)) continue;
    if (keys(d).some((k) => sets.some((s) => sameSet(k, s)))) fuzzy.push({ rank: d.rank, tier: TIER.fuzzyWordSet });
    else if (
      scan &&
      words.every((w, i) => (typed(w, i) ? (i === last ? [...d.all].some((t) => t.startsWith(w)) : d.all.has(w)) : near(w).some((t) => d.all.has(t))))
    ) {
      fuzzy.push({ rank: d.rank, tier: TIER.fuzzy });
    }
  }
  return [...exact.sort((a, b) => a.tier - b.tier || a.rank - b.rank), ...fuzzy.sort((a, b) => a.tier - b.tier || a.rank - b.rank)];
}

describe('searchIndex against a brute-force ranking of the documented tiers', () => {
  let dir: string;
  let index: SearchIndex;
  let docs: Doc[];
  let dictionary: Set<string>;
  const terms: string[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'omm-search-engine-'));
    const { docs: input, artistNames } = catalog();
    writeSearchIndex(join(dir, 'search.blob'), 'test', input);
    index = new SearchIndex(openShard(join(dir, 'search.blob')));
    const tokens = (s: string) =>
      new Set(
        searchText(s)
          .split(' ')
          .filter((t) => t.length > 0),
      );
    docs = Array.from(input.ordinals, (ordinal, rank) => {
      const artistSets = Array.from(input.artists!.targets.subarray(input.artists!.offsets[ordinal], input.artists!.offsets[ordinal + 1]), (a) =>
        tokens(artistNames[a]),
      );
      const nameTerms = tokens(input.names[ordinal]);
      return { rank, name: searchText(input.names[ordinal]), nameTerms, artistSets, all: new Set([...nameTerms, ...artistSets.flatMap((s) => [...s])]) };
    });
    dictionary = new Set(docs.flatMap((d) => [...d.all]));
    const next = prng(11);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    const typo = (w: string) => {
      const i = 1 + Math.floor(next() * (w.length - 2));
      return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
    };
    for (let i = 0; i < 60; i++) {
      const d = docs[Math.floor(next() * docs.length)];
      const [first, second] = d.name.split(' ');
      const artist = [...pick(d.artistSets)].join(' ');
      terms.push(first, d.name, `${d.name} ${artist}`, `${artist} ${d.name}`, d.name.slice(0, 3));
      if (second) terms.push(`${first} ${second.slice(0, 2)}`);
      // A last word cut short: found as a prefix, and one edit from a term (both kinds of tier).
      const lastWord = d.name.split(' ').at(-1)!;
      if (lastWord.length >= 5) terms.push(`${artist} ${d.name.slice(0, -1)}`, `${first} ${lastWord.slice(0, -1)}`);
      const long = d.name.split(' ').find((w) => w.length >= 4);
      if (long) terms.push(d.name.replace(long, typo(long)), `${d.name.replace(long, typo(long))} ${artist}`);
    }
    // A credit and a title whose last word is cut short: a few exact results (the cut word as a
    // prefix) and more one edit away, which is where FUZZY_BELOW decides.
    for (const d of docs.filter((x) => /\s(night|river)$/.test(x.name)).slice(0, 16)) terms.push(`${[...d.artistSets[0]].join(' ')} ${d.name.slice(0, -1)}`);
    terms.push('LOVE', 'Café Niño', 'cafe nino', '夜心', 'zzzz', 'the the', 'ölü', 'olu', 'live', 'l');
    // A last word that starts several common terms (rain, river; star, sun; night, niño; gold, grupo).
    terms.push('love r', 'the s', 'fire n', 'moon g', 'you the r', 'r love', 'night s');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ranks every term as the brute force does, with the same total', () => {
    let compared = 0;
    let fuzzy = 0;
    for (const term of terms) {
      const expected = reference(docs, dictionary, term);
      const got = searchIndex(index, term);
      expect(got.hits, term).toEqual(expected.slice(0, 1000));
      expect(got.total, term).toBe(Math.min(1000, expected.length));
      compared++;
      if (expected.some((h) => h.tier >= TIER.fuzzyWordSet)) fuzzy++;
    }
    expect(compared).toBeGreaterThan(400);
    expect(fuzzy).toBeGreaterThan(20);
    // Terms where the typo tiers add to a few exact results (what FUZZY_BELOW decides).
    const mixed = terms.filter((t) => {
      const r = reference(docs, dictionary, t);
      return r.some((h) => h.tier <= TIER.allWords) && r.some((h) => h.tier >= TIER.fuzzyWordSet);
    });
    expect(mixed.length).toBeGreaterThan(1);
  });

  it('keeps only the hits a page needs, with the same order and total as the whole ranking', () => {
    for (const term of terms.slice(0, 120)) {
      const whole = searchIndex(index, term);
      for (const need of [1, 10, 37]) {
        const page = searchIndex(index, term, { need });
        expect(page.total, term).toBe(whole.total);
        expect(page.hits, term).toEqual(whole.hits.slice(0, need));
      }
    }
  });

  it('counts up to a smaller window, where a common word fills it at once', () => {
    for (const term of ['love', 'the', 'love night', 'fire r']) {
      const expected = reference(docs, dictionary, term);
      const got = searchIndex(index, term, { window: 50, need: 10 });
      expect(got.total, term).toBe(Math.min(50, expected.length));
      expect(got.hits, term).toEqual(expected.slice(0, 10));
    }
  });

  it('stops counting at countTo, with the same hits and the same answer to whether more follow', () => {
    let short = 0;
    for (const term of terms.slice(0, 200)) {
      const whole = searchIndex(index, term);
      for (const need of [1, 10, 25]) {
        const counted = searchIndex(index, term, { need, countTo: need + 1 });
        expect(counted.hits, term).toEqual(whole.hits.slice(0, need));
        expect(counted.total, term).toBe(Math.min(whole.total, Math.max(need + 1, FUZZY_BELOW)));
        expect(counted.total > need, term).toBe(whole.total > need);
        if (counted.total < whole.total) short++;
      }
    }
    expect(short).toBeGreaterThan(100);
  });

  it('answers lookup tiers only when asked not to scan', () => {
    const term = `${docs[5].name} ${[...docs[5].artistSets[0]].join(' ')}`;
    const hits = searchIndex(index, term, { scans: false }).hits;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.tier !== TIER.allWords && h.tier !== TIER.fuzzy)).toBe(true);
    expect(hits.map((h) => h.rank)).toContain(docs[5].rank);
  });
});

describe('searchIndex across scripts with marks', () => {
  let dir: string;
  let index: SearchIndex;
  const names = ['שָׁלוֹם', 'أغنية الحب', 'नमस्ते दुनिया', 'दिन यार', 'ที่รัก', 'Canción'];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'omm-search-marks-'));
    writeSearchIndex(join(dir, 'marks.blob'), 'b1', { type: 'song', ordinals: Uint32Array.from(names.keys()), names });
    index = new SearchIndex(openShard(join(dir, 'marks.blob')));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const found = (term: string) => searchIndex(index, term, { need: 10 }).hits.map((h) => ({ name: names[index.ordinal(h.rank)], tier: h.tier }));

  it('finds a name written with pointing or vowel signs by the word typed without them', () => {
    expect(found('שלום')).toEqual([{ name: 'שָׁלוֹם', tier: TIER.exactName }]);
    expect(found('اغنية')).toEqual([{ name: 'أغنية الحب', tier: TIER.namePrefix }]);
    expect(found('cancion')).toEqual([{ name: 'Canción', tier: TIER.exactName }]);
  });

  it('keeps Indic and Thai words whole: a word matches as a word, not as the letters it shares', () => {
    // Split at its vowel signs, दुनिया would be the letters द न य, which दिन यार also holds.
    expect(found('दुनिया')).toEqual([{ name: 'नमस्ते दुनिया', tier: TIER.allWords }]);
    expect(found('नमस्ते दुनिया')).toEqual([{ name: 'नमस्ते दुनिया', tier: TIER.exactName }]);
    expect(found('दिन')).toEqual([{ name: 'दिन यार', tier: TIER.namePrefix }]);
    expect(found('ที่รัก')).toEqual([{ name: 'ที่รัก', tier: TIER.exactName }]);
    expect(index.termId('नमस्ते')).toBeGreaterThanOrEqual(0);
  });
});
