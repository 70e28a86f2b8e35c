import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchIndex } from '../index-format/search/search-index.js';
import { openShard } from '../index-format/shards/shard-reader.js';
import { writeSearchIndex, type SearchDocuments } from '../../test/helpers/search-columns.js';
import { prefixTypoRanges } from './prefix-typos.js';
import { typoVariants } from './typo-variants.js';

let x = 5;
const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
const LETTERS = [...'abcdefghijklmnopqrstuvwxyzéñ'];
const REAL = ['interlude', 'international', 'intermission', 'interval', 'lovingly', 'nightingale', 'riverside', 'silently', 'überall', 'niñera'];
/** Names of 1-3 long words: real ones sharing their heads ("inter..."), and made-up ones. */
function documents(): SearchDocuments {
  const made = Array.from({ length: 300 }, () => Array.from({ length: 7 + Math.floor(next() * 6) }, () => pick(LETTERS)).join(''));
  const words = [...REAL, ...made];
  const names = Array.from({ length: 3000 }, () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(words)).join(' '));
  const count = names.length;
  const offsets = Uint32Array.from({ length: count + 1 }, (_, i) => i);
  const targets = Uint32Array.from({ length: count }, () => Math.floor(next() * 20));
  const ordinals = Uint32Array.from({ length: count }, (_, i) => i);
  return { type: 'song', ordinals, names, artists: { offsets, targets, artistNames: Array.from({ length: 20 }, (_, i) => `artist${i}`) } };
}

describe('the terms starting one edit away from a long last word', () => {
  let dir: string;
  let index: SearchIndex;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'omm-prefix-typos-'));
    writeSearchIndex(join(dir, 'search.blob'), 'b1', documents());
    index = new SearchIndex(openShard(join(dir, 'search.blob')));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** What the engine looked up before: every variant's prefix range, the empty ones left out. */
  const everyVariant = (word: string) => [...typoVariants(word, index.alphabet)].map((v) => index.prefixRange(v)).filter((r) => r.to > r.from);

  it('finds exactly the ranges, in the same order, that looking up every variant finds', () => {
    const letters = [...index.alphabet];
    const words = new Set<string>();
    // Terms with an edit and a tail (someone typing past a misspelt word), and strings of the index's letters.
    for (let id = 0; id < index.terms; id++) {
      const term = [...index.term(id)];
      for (let k = 0; k < 3; k++) {
        const at = Math.floor(next() * term.length);
        const edited = [...term.slice(0, at), letters[Math.floor(next() * letters.length)], ...term.slice(at + (k === 1 ? 0 : 1))];
        words.add([...edited, ...'abcdefg'.slice(0, Math.max(0, 7 - edited.length) + k)].join(''));
      }
    }
    for (let k = 0; k < 200; k++) words.add(Array.from({ length: 7 + Math.floor(next() * 6) }, () => letters[Math.floor(next() * letters.length)]).join(''));
    for (const word of ['intrelude', 'internatoinal', 'nightingail', 'riversidee', 'uberall', 'niñeraa', 'interlxde', 'zzzzzzzz']) words.add(word);
    let found = 0;
    for (const word of words) {
      if (index.prefixRange(word).to > index.prefixRange(word).from) continue; // a word some term starts with is not corrected
      const want = everyVariant(word);
      expect(prefixTypoRanges(index, word), word).toEqual(want);
      if (want.length > 0) found++;
    }
    expect(words.size).toBeGreaterThan(1000);
    expect(found).toBeGreaterThan(100);
  });
});
