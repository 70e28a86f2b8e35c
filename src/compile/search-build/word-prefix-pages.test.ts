import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FirstPagesWriter } from '../../index-format/search/first-pages-writer.js';
import { SearchIndex } from '../../index-format/search/search-index.js';
import { openShard } from '../../index-format/shards/shard-reader.js';
import { SEARCH_ENGINE_VERSION, SEARCH_WINDOW, searchIndex } from '../../search/search-engine.js';
import { COMMON, firstPagesDocuments } from '../../../test/helpers/first-pages-fixture.js';
import { writeSearchIndex } from '../../../test/helpers/search-columns.js';
import { writeFirstPages } from './first-pages.js';
import { WORD_PREFIX_PAGE_LIMIT } from './word-prefix-pages.js';

describe('first pages of a word and a prefix typed after it (written by the compile)', () => {
  let dir: string;
  let live: SearchIndex;
  let stored: SearchIndex;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'omm-word-prefix-'));
    writeSearchIndex(join(dir, 'search.blob'), 'b1', firstPagesDocuments());
    writeFirstPages(join(dir, 'search.blob'), join(dir, 'pages.blob'), 'b1', { minPostings: 100 });
    live = new SearchIndex(openShard(join(dir, 'search.blob')));
    stored = new SearchIndex(openShard(join(dir, 'search.blob')), openShard(join(dir, 'pages.blob')));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps pages for a dense term and a prefix typed after it, and answers those as the live engine does, a longer page live', () => {
    const wordPrefixes = stored.firstPages!.wordPrefixes()!;
    expect(stored.firstPages!.meta.wordPrefixLimit).toBe(WORD_PREFIX_PAGE_LIMIT);
    expect(wordPrefixes.size).toBeGreaterThanOrEqual(COMMON.length * 8);
    const lo = live.prefixRange('lo');
    const page = wordPrefixes.page([live.termId('night'), lo.from, lo.to])!;
    expect(page.total).toBe(searchIndex(live, 'night lo').total);
    expect(page.count).toBe(WORD_PREFIX_PAGE_LIMIT);
    let typed = 0;
    for (const a of COMMON) {
      for (const b of COMMON) {
        const chars = [...b];
        for (let n = 1; n < chars.length; n++) {
          const term = `${a} ${chars.slice(0, n).join('')}`;
          for (const need of [1, 5, 10, 11, 25]) {
            const want = searchIndex(live, term, { need });
            const got = searchIndex(stored, term, { need });
            expect({ term, need, hits: got.hits, total: got.total }).toEqual({ term, need, hits: want.hits, total: want.total });
          }
          typed++;
        }
      }
    }
    expect(typed).toBeGreaterThan(COMMON.length * COMMON.length);
    // A rare word has none; nor does a prefix that is a term ("love" in "night love" is both).
    const rare = live.termId('w1x');
    expect(wordPrefixes.page([rare, lo.from, lo.to])).toBeNull();

    // What answers is the page: a doctored one is served for its word and range, up to its limit.
    const path = join(dir, 'doctored-word-prefix.blob');
    const w = new FirstPagesWriter(path, 'b1');
    w.beginPrefixes();
    w.beginWordPrefixes(2);
    w.addWordPrefix(live.termId('night'), lo.from, lo.to, 2, [
      { rank: 11, tier: 3 },
      { rank: 4, tier: 5 },
    ]);
    w.finish({ type: 'song', engine: SEARCH_ENGINE_VERSION, limit: 25, window: SEARCH_WINDOW, terms: live.terms });
    const doctored = new SearchIndex(openShard(join(dir, 'search.blob')), openShard(path));
    const fake = { hits: [{ rank: 11, tier: 3 }], total: 2 };
    expect(searchIndex(doctored, 'Night lo', { need: 1 })).toEqual(fake);
    // "l" starts the same terms as "lo" here (love, lover, loving): the same page.
    const l = live.prefixRange('l');
    expect([l.from, l.to]).toEqual([lo.from, lo.to]);
    expect(searchIndex(doctored, 'night l', { need: 1 })).toEqual(fake);
    expect(searchIndex(doctored, 'night lo', { need: 3 })).toEqual(searchIndex(live, 'night lo', { need: 3 }));
  });
});
