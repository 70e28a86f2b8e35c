import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FirstPagesWriter } from '../../index-format/search/first-pages-writer.js';
import { SearchIndex } from '../../index-format/search/search-index.js';
import { writeSearchIndex, type SearchDocuments } from '../../../test/helpers/search-columns.js';
import { openShard } from '../../index-format/shards/shard-reader.js';
import { SEARCH_ENGINE_VERSION, SEARCH_WINDOW, searchIndex } from '../../search/search-engine.js';
import { ExternalSorter } from '../../sort/external-sort.js';
import { writeFirstPages } from './first-pages.js';
import { severalTermWords, type PhraseSource } from './phrase-pages.js';

const words = (text: string) => {
  const out: string[] = [];
  severalTermWords(text, (normal) => out.push(normal));
  return out;
};

describe('severalTermWords', () => {
  it('gives each word as written that normalises to several terms, normalised', () => {
    expect(words('さくら ひかり')).toEqual(['さ く ら', 'ひ か り']);
    expect(words("Rock'n'Roll Love")).toEqual(['rock n roll']);
    expect(words('AC/DC  Back in Black')).toEqual(['ac dc']);
    expect(words('東京 Love さくら夜')).toEqual(['東 京', 'さ く ら 夜']);
    expect(words('（さくら）')).toEqual(['さ く ら']);
  });

  it('gives nothing for words of one term each, or of more terms than a phrase holds', () => {
    expect(words('Love Song 2024')).toEqual([]);
    expect(words('Beyoncé Déjà-vu')).toEqual(['deja vu']);
    expect(words('夜 - 夜')).toEqual([]);
    expect(words('あ'.repeat(33))).toEqual([]);
    expect(words('あ'.repeat(32))).toHaveLength(1);
  });
});

// CJK titles built from a few common words (so their characters are held by many documents),
// Latin titles with contractions and a word of two common terms, and credited artists written
// the same ways or with rare words of two terms.
const CJK_WORDS = ['さくら', 'ひかり', 'ゆめ', '爱', '夜', '心', '東京'];
const LATIN = ['love', 'night', "don't", "rock'n'roll", 'fire', 'love/night'];
function documents(): SearchDocuments {
  let x = 29;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const cjkWord = () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(CJK_WORDS)).join('');
  const artistNames = Array.from({ length: 40 }, (_, i) => (i % 2 ? `${cjkWord()} ${pick(LATIN)}` : `${pick(LATIN)} r${i}x-${i}y`));
  const count = 3000;
  const names: string[] = [];
  const offsets = new Uint32Array(count + 1);
  const targets: number[] = [];
  for (let o = 0; o < count; o++) {
    const n = 1 + Math.floor(next() * 3);
    names.push(Array.from({ length: n }, () => (next() < 0.6 ? cjkWord() : pick(LATIN))).join(' '));
    targets.push(Math.floor(next() * artistNames.length));
    offsets[o + 1] = targets.length;
  }
  const ordinals = Uint32Array.from({ length: count }, (_, i) => i).sort((a, b) => ((a * 7919) % count) - ((b * 7919) % count));
  return { type: 'song', ordinals, names, artists: { offsets, targets: Uint32Array.from(targets), artistNames } };
}

describe('first pages of phrase searches (written by the compile)', () => {
  let dir: string;
  let docs: SearchDocuments;
  let live: SearchIndex;
  let stored: SearchIndex;
  let phrasePages = 0;
  const phrases = new Set<string>();
  const source = (): PhraseSource => ({
    names: (emit) => {
      docs.names.forEach((name) => emit(name));
      docs.artists!.artistNames.forEach((name) => emit(name));
    },
    sorter: () => new ExternalSorter(dir, 'phrases', 1 << 20),
  });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'omm-phrase-pages-'));
    docs = documents();
    for (const name of [...docs.names, ...docs.artists!.artistNames]) severalTermWords(name, (normal) => phrases.add(normal));
    writeSearchIndex(join(dir, 'search.blob'), 'b1', docs);
    phrasePages = writeFirstPages(join(dir, 'search.blob'), join(dir, 'pages.blob'), 'b1', { minPostings: 100, pairTerms: 4, phrases: source() }).phrasePages;
    live = new SearchIndex(openShard(join(dir, 'search.blob')));
    stored = new SearchIndex(openShard(join(dir, 'search.blob')), openShard(join(dir, 'pages.blob')));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps a page for the phrases whose words are common, not for the rest', () => {
    const pages = stored.firstPages!.phrases()!;
    expect(phrasePages).toBe(pages.size);
    expect(phrases.size).toBeGreaterThan(30);
    expect(phrasePages).toBeGreaterThan(20);
    const ids = (normal: string) => normal.split(' ').map((w) => live.termId(w));
    expect(pages.page(ids('さ く ら'))).not.toBeNull();
    expect(pages.page(ids('rock n roll'))).not.toBeNull();
    // Not the same terms in another order, nor a phrase no name writes.
    expect(pages.page(ids('ら く さ'))).toBeNull();
    expect(pages.page(ids('さ く'))).toBeNull();
    // Every phrase kept or not by the rule: rare words (the artists' "r3x-3y") have too few
    // documents to be worth a page, and "love/night" is two pair terms, which have a pair page.
    const offsets = live.u32('postings.offsets');
    let kept = 0;
    let rare = 0;
    let paired = 0;
    for (const phrase of phrases) {
      const terms = phrase.split(' ');
      const held = terms.map((w, i) => {
        const r = i === terms.length - 1 ? live.prefixRange(w) : { from: live.termId(w), to: live.termId(w) + 1 };
        return offsets[r.to] - offsets[r.from];
      });
      const two = terms.length === 2 && stored.firstPages!.pairPage(ids(phrase)[0], ids(phrase)[1]) !== null;
      const has = pages.page(ids(phrase)) !== null;
      expect(has, phrase).toBe(Math.min(...held) >= 100 && !two);
      if (has) kept++;
      if (Math.min(...held) < 100) rare++;
      if (two) paired++;
    }
    expect(kept).toBe(phrasePages);
    expect(rare).toBeGreaterThan(0);
    expect(paired).toBeGreaterThan(0);
  });

  it('answers every phrase, page size and window exactly as the live engine does', () => {
    for (const phrase of phrases) {
      for (const typed of [phrase.replace(/ /g, ''), phrase.toUpperCase(), phrase]) {
        for (const options of [{ need: 1 }, { need: 10 }, { need: 25 }, { need: 26 }, { need: 10, window: 50 }, { need: 5, countTo: 6 }]) {
          const want = searchIndex(live, typed, options);
          const got = searchIndex(stored, typed, options);
          expect({ typed, options, hits: got.hits, total: got.total }).toEqual({ typed, options, hits: [...want.hits], total: want.total });
        }
      }
    }
  });

  it('is what answers a stored phrase, in its order and up to its limit', () => {
    const path = join(dir, 'doctored.blob');
    const w = new FirstPagesWriter(path, 'b1');
    w.beginPhrases();
    const sakura = ['さ', 'く', 'ら'].map((c) => live.termId(c));
    w.addPhrase(sakura, 2, [
      { rank: 12, tier: 3 },
      { rank: 4, tier: 5 },
    ]);
    w.addPhrase([live.termId('don'), live.termId('t')], 1, [{ rank: 9, tier: 0 }]);
    expect(() => w.addPhrase([live.termId('love')], 1, [])).toThrow(/1 terms/);
    w.finish({ type: 'song', engine: SEARCH_ENGINE_VERSION, limit: 25, window: SEARCH_WINDOW, terms: live.terms });
    const doctored = new SearchIndex(openShard(join(dir, 'search.blob')), openShard(path));
    expect(searchIndex(doctored, 'さくら', { need: 10 })).toEqual({
      hits: [
        { rank: 12, tier: 3 },
        { rank: 4, tier: 5 },
      ],
      total: 2,
    });
    expect(searchIndex(doctored, "DON'T", { need: 10 })).toEqual({ hits: [{ rank: 9, tier: 0 }], total: 1 });
    expect(searchIndex(doctored, 'らくさ', { need: 10 }).hits).toEqual(searchIndex(live, 'らくさ', { need: 10 }).hits);
    expect(searchIndex(doctored, 'さくら', { need: 26 }).hits).toEqual(searchIndex(live, 'さくら', { need: 26 }).hits);
    expect(searchIndex(doctored, 'さくら', { need: 10, fuzzy: false }).hits).toEqual(searchIndex(live, 'さくら', { need: 10, fuzzy: false }).hits);
  });

  it('writes the same bytes from the same names, and none without them', () => {
    const again = join(dir, 'again.blob');
    writeFirstPages(join(dir, 'search.blob'), again, 'b1', { minPostings: 100, pairTerms: 4, phrases: source() });
    expect(readFileSync(again).equals(readFileSync(join(dir, 'pages.blob')))).toBe(true);
    const without = join(dir, 'without.blob');
    expect(writeFirstPages(join(dir, 'search.blob'), without, 'b1', { minPostings: 100, pairTerms: 4 }).phrasePages).toBe(0);
    expect(new SearchIndex(openShard(join(dir, 'search.blob')), openShard(without)).firstPages!.phrases()).toBeNull();
  });
});
