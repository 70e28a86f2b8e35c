import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAIR_NOT_COUNTED } from '../../index-format/search/first-pages.js';
import { FirstPagesWriter } from '../../index-format/search/first-pages-writer.js';
import { SearchIndex } from '../../index-format/search/search-index.js';
import { searchText } from '../../index-format/search/search-text.js';
import { writeSearchIndex } from '../../../test/helpers/search-columns.js';
import { COMMON, firstPagesDocuments as documents } from '../../../test/helpers/first-pages-fixture.js';
import { openShard } from '../../index-format/shards/shard-reader.js';
import { CANDIDATE_SCAN, SEARCH_ENGINE_VERSION, SEARCH_WINDOW, searchIndex } from '../../search/search-engine.js';
import { mostHeldThreshold, writeFirstPages } from './first-pages.js';

describe('first pages of one-word and two-word searches, and pair counts (written by the compile)', () => {
  let dir: string;
  let live: SearchIndex;
  let stored: SearchIndex;
  let pages = 0;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'omm-first-pages-'));
    writeSearchIndex(join(dir, 'search.blob'), 'b1', documents());
    pages = writeFirstPages(join(dir, 'search.blob'), join(dir, 'pages.blob'), 'b1', { minPostings: 100, mostHeld: 0 }).pages;
    live = new SearchIndex(openShard(join(dir, 'search.blob')));
    stored = new SearchIndex(openShard(join(dir, 'search.blob')), openShard(join(dir, 'pages.blob')));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps pages for the common terms only', () => {
    const kept = Array.from({ length: live.terms }, (_, id) => stored.firstPages!.page(id) !== null);
    expect(pages).toBe(kept.filter(Boolean).length);
    expect(stored.firstPages!.page(live.termId('love'))).not.toBeNull();
    expect(stored.firstPages!.page(live.termId('w1x'))).toBeNull();
    expect(pages).toBeGreaterThanOrEqual(COMMON.length);
    expect(pages).toBeLessThan(live.terms / 2);
  });

  it('answers every term, every page size and offset exactly as the live engine does', () => {
    for (let id = 0; id < live.terms; id++) {
      const term = live.term(id);
      for (const need of [1, 10, 25, 26, 100]) {
        const a = searchIndex(live, term, { need });
        const b = searchIndex(stored, term, { need });
        expect({ term, need, hits: b.hits, total: b.total }).toEqual({ term, need, hits: [...a.hits], total: a.total });
      }
      // As typed: capitals and accents normalise to the term.
      expect(searchIndex(stored, term.toUpperCase(), { need: 10 }).hits).toEqual(searchIndex(live, term.toUpperCase(), { need: 10 }).hits);
    }
  });

  it('keeps pages for the terms held by the most documents too, up to mostHeld, and answers them as live', () => {
    const offsets = live.u32('postings.offsets');
    const held = (id: number) => offsets[id + 1] - offsets[id];
    const threshold = mostHeldThreshold(offsets, live.terms, 150);
    expect(Array.from({ length: live.terms }, (_, id) => id).filter((id) => held(id) >= threshold).length).toBeLessThanOrEqual(150);
    expect(Array.from({ length: live.terms }, (_, id) => id).filter((id) => held(id) >= threshold - 1).length).toBeGreaterThan(150);
    const path = join(dir, 'most-held.blob');
    writeFirstPages(join(dir, 'search.blob'), path, 'b1', { minPostings: 100, mostHeld: 150 });
    const more = new SearchIndex(openShard(join(dir, 'search.blob')), openShard(path));
    for (let id = 0; id < live.terms; id++) {
      const dense = stored.firstPages!.page(id) !== null;
      expect(more.firstPages!.page(id) !== null, live.term(id)).toBe(dense || held(id) >= threshold);
      const a = searchIndex(live, live.term(id), { need: 25 });
      const b = searchIndex(more, live.term(id), { need: 25 });
      expect({ hits: [...b.hits], total: b.total }, live.term(id)).toEqual({ hits: [...a.hits], total: a.total });
    }
    expect(mostHeldThreshold(offsets, live.terms, live.terms)).toBe(0);
    expect(mostHeldThreshold(offsets, live.terms, 0)).toBe(Infinity);
  });

  it('keeps pages for the costly prefixes that are no term, and answers every prefix as the live engine does', () => {
    const prefixes = new Set<string>();
    for (let id = 0; id < live.terms; id++) {
      const chars = [...live.term(id)];
      for (let n = 1; n <= chars.length; n++) prefixes.add(chars.slice(0, n).join(''));
    }
    const ranges = new Set<string>();
    for (const prefix of prefixes) {
      const range = live.prefixRange(prefix);
      const page = live.termId(prefix) < 0 ? stored.firstPages!.prefixes()!.page([range.from, range.to]) : null;
      if (page) ranges.add(`${range.from}:${range.to}`);
      for (const need of [5, 25, 26]) {
        const a = searchIndex(live, prefix, { need });
        const b = searchIndex(stored, prefix, { need });
        expect({ prefix, need, hits: b.hits, total: b.total }).toEqual({ prefix, need, hits: [...a.hits], total: a.total });
      }
    }
    // "lo", "lov", "ni", "nig", "nigh", "ri", "riv", ... ("love", "lover" and "loving" are terms);
    // one page per term range ("nig" and "nigh" start the same terms).
    expect(ranges.size).toBeGreaterThanOrEqual(8);
    expect(stored.firstPages!.prefixes()!.size).toBe(ranges.size);
    const lo = live.prefixRange('lo');
    expect(stored.firstPages!.prefixes()!.page([lo.from, lo.to])!.total).toBe(searchIndex(live, 'lo').total);
    const rare = live.prefixRange('w2g');
    expect(rare.to - rare.from).toBe(1);
    expect(stored.firstPages!.prefixes()!.page([rare.from, rare.to])).toBeNull();
  });

  it('is what answers the stored terms, and is ignored when ranked by another engine version', () => {
    const write = (engine: number) => {
      const path = join(dir, `fake-${engine}.blob`);
      const w = new FirstPagesWriter(path, 'b1');
      w.add(live.termId('love'), 3, [
        { rank: 7, tier: 2 },
        { rank: 5, tier: 3 },
        { rank: 9, tier: 5 },
      ]);
      w.finish({ type: 'song', engine, limit: 25, window: SEARCH_WINDOW, terms: live.terms });
      return new SearchIndex(openShard(join(dir, 'search.blob')), openShard(path));
    };
    const same = write(SEARCH_ENGINE_VERSION);
    expect(searchIndex(same, 'Love', { need: 10 })).toEqual({
      hits: [
        { rank: 7, tier: 2 },
        { rank: 5, tier: 3 },
        { rank: 9, tier: 5 },
      ],
      total: 3,
    });
    // Not for a page past the stored limit, nor for a term without a page, nor two words.
    expect(searchIndex(same, 'love', { need: 26 }).total).toBe(searchIndex(live, 'love', { need: 26 }).total);
    expect(searchIndex(same, 'love night', { need: 10 }).hits).toEqual(searchIndex(live, 'love night', { need: 10 }).hits);
    const other = write(SEARCH_ENGINE_VERSION + 1);
    expect(searchIndex(other, 'love', { need: 10 }).hits).toEqual(searchIndex(live, 'love', { need: 10 }).hits);
  });

  it('counts the two-word searches of the densest terms as a brute force does', () => {
    const pages = stored.firstPages!;
    const scan = Math.max(CANDIDATE_SCAN, SEARCH_WINDOW);
    expect(pages.meta.pairScan).toBe(scan);
    const offsets = live.u32('postings.offsets');
    const postings = live.u32('postings');
    const size = (t: number) => offsets[t + 1] - offsets[t];
    let counted = 0;
    for (const a of COMMON) {
      for (const b of COMMON) {
        const [x, y] = [live.termId(searchText(a)), live.termId(searchText(b))];
        expect(x >= 0 && y >= 0, `${a} ${b}`).toBe(true);
        const count = pages.pairCount(x, y);
        if (size(x) > size(y)) {
          expect(count, `${a} ${b}`).toBe(-1);
          continue;
        }
        const other = new Set(postings.subarray(offsets[y], offsets[y + 1]));
        const first = postings.subarray(offsets[x], Math.min(offsets[x + 1], offsets[x] + scan));
        expect(count, `${a} ${b}`).toBe(first.filter((r) => other.has(r)).length);
        counted++;
      }
    }
    expect(counted).toBeGreaterThanOrEqual((COMMON.length * (COMMON.length + 1)) / 2);
    // A rare term is not counted.
    expect(pages.pairCount(live.termId('w1x'), live.termId('love'))).toBe(-1);
  });

  it('answers two-word searches of counted terms exactly as the live engine does', () => {
    let pairs = 0;
    for (const a of COMMON) {
      for (const b of [...COMMON, 'lov', 'riv', 'w1x', 'w1']) {
        const term = b === 'riv' ? `${a.toUpperCase()}  ${b}` : `${a} ${b}`;
        for (const options of [{ need: 1 }, { need: 10 }, { need: 25 }, { need: 100 }, { need: 10, window: 50 }, { need: 5, countTo: 6 }]) {
          const want = searchIndex(live, term, options);
          const got = searchIndex(stored, term, options);
          expect({ term, options, hits: got.hits, total: got.total }).toEqual({ term, options, hits: want.hits, total: want.total });
        }
        pairs++;
      }
    }
    expect(pairs).toBe(COMMON.length * (COMMON.length + 4));
  });

  it('takes the total of a counted pair from the stored count', () => {
    const [love, night] = [live.termId('love'), live.termId('night')];
    const offsets = live.u32('postings.offsets');
    const [driver, other] = offsets[love + 1] - offsets[love] <= offsets[night + 1] - offsets[night] ? [love, night] : [night, love];
    const real = stored.firstPages!.pairCount(driver, other);
    const terms = Uint32Array.from([love, night]).sort();
    const counts = new Uint32Array(4).fill(PAIR_NOT_COUNTED);
    counts[terms.indexOf(driver) * 2 + terms.indexOf(other)] = real - 3;
    const path = join(dir, 'doctored.blob');
    new FirstPagesWriter(path, 'b1').finish(
      { type: 'song', engine: SEARCH_ENGINE_VERSION, limit: 25, window: SEARCH_WINDOW, terms: live.terms },
      { terms, counts, scan: Math.max(CANDIDATE_SCAN, SEARCH_WINDOW) },
    );
    const doctored = new SearchIndex(openShard(join(dir, 'search.blob')), openShard(path));
    const want = searchIndex(live, 'love night', { need: 10 });
    expect(want.total).toBeLessThan(SEARCH_WINDOW);
    const got = searchIndex(doctored, 'love night', { need: 10 });
    expect(got.hits).toEqual(want.hits);
    expect(got.total).toBe(want.total - 3);
  });

  it('keeps the first page of every two-word search of two counted terms, and answers from it', () => {
    const pages = stored.firstPages!;
    const [love, night, fire] = ['love', 'night', 'fire'].map((w) => live.termId(w));
    const page = pages.pairPage(love, night)!;
    expect(page).not.toBeNull();
    const want = searchIndex(live, 'love night', { need: 25 });
    expect(page.total).toBe(want.total);
    expect(Array.from({ length: page.count }, (_, i) => ({ rank: page.rank(i), tier: page.tier(i) }))).toEqual(want.hits);
    expect(pages.pairPage(night, love)).not.toBeNull();
    expect(pages.pairPage(love, love)).toBeNull();
    expect(pages.pairPage(love, live.termId('w1x'))).toBeNull();

    // A doctored page shows which answers come from the store: the pair asked, up to its limit.
    const terms = Uint32Array.from([love, night, fire]).sort();
    const cell = (a: number, b: number) => terms.indexOf(a) * 3 + terms.indexOf(b);
    const path = join(dir, 'pair-pages.blob');
    const w = new FirstPagesWriter(path, 'b1');
    w.beginPairs({ terms, counts: new Uint32Array(9).fill(PAIR_NOT_COUNTED), scan: Math.max(CANDIDATE_SCAN, SEARCH_WINDOW) });
    const cells = [cell(love, night), cell(night, fire)].sort((a, b) => a - b);
    for (const c of cells)
      w.addPair(
        c,
        c === cell(love, night) ? 2 : 1,
        c === cell(love, night)
          ? [
              { rank: 11, tier: 3 },
              { rank: 4, tier: 3 },
            ]
          : [{ rank: 8, tier: 0 }],
      );
    expect(() => w.addPair(cells[0], 1, [])).toThrow(/after/);
    w.finish({ type: 'song', engine: SEARCH_ENGINE_VERSION, limit: 25, window: SEARCH_WINDOW, terms: live.terms });
    const doctored = new SearchIndex(openShard(join(dir, 'search.blob')), openShard(path));
    expect(searchIndex(doctored, 'Love  NIGHT', { need: 10 })).toEqual({
      hits: [
        { rank: 11, tier: 3 },
        { rank: 4, tier: 3 },
      ],
      total: 2,
    });
    expect(searchIndex(doctored, 'night fire', { need: 1 })).toEqual({ hits: [{ rank: 8, tier: 0 }], total: 1 });
    // Not the other order, nor a page past the limit, nor three words.
    expect(searchIndex(doctored, 'night love', { need: 10 }).hits).toEqual(searchIndex(live, 'night love', { need: 10 }).hits);
    expect(searchIndex(doctored, 'love night', { need: 26 }).hits).toEqual(searchIndex(live, 'love night', { need: 26 }).hits);
    expect(searchIndex(doctored, 'love night fire', { need: 10 }).hits).toEqual(searchIndex(live, 'love night fire', { need: 10 }).hits);
  });

  it("verifies its sections among the search index's warm-up steps", () => {
    const original = join(dir, 'pages.blob');
    const start = openShard(original).section('pairs.hits').start;
    const bytes = readFileSync(original);
    bytes[start + 5] ^= 0xff;
    const flipped = join(dir, 'flipped-pages.blob');
    writeFileSync(flipped, bytes);
    const index = new SearchIndex(openShard(join(dir, 'search.blob')), openShard(flipped));
    expect(() => {
      for (const step of index.preparationSteps(4096)) step();
    }).toThrow(/CRC/);
    const sound = new SearchIndex(openShard(join(dir, 'search.blob')), openShard(original));
    for (const step of sound.preparationSteps(4096)) step();
  });

  it('refuses pages written for another index', () => {
    const path = join(dir, 'foreign.blob');
    new FirstPagesWriter(path, 'b1').finish({ type: 'song', engine: SEARCH_ENGINE_VERSION, limit: 25, window: SEARCH_WINDOW, terms: live.terms + 1 });
    expect(() => new SearchIndex(openShard(join(dir, 'search.blob')), openShard(path))).toThrow(/do not belong/);
  });
});
