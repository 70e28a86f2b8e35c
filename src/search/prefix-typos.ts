import type { SearchIndex, TermRange } from '../index-format/search/search-index.js';
import { typoVariants } from './typo-variants.js';

/** A position whose terms number fewer than this has its letters read from them, not tried one by one. */
const READ_LETTERS_BELOW = 64;

/**
 * The ranges of the terms that start one edit away from `word` (a query's last word, typed past
 * every term): the non-empty prefix ranges of typoVariants(word), in its order, without looking
 * up the variants that cannot start a term. An edit at position j keeps the word's first j
 * characters: where no term starts with them, no variant edited there can start one; and where
 * few terms do, the only letters worth inserting or substituting at j are those the terms have
 * at j. A variant left out here has an empty range, so the ranges found, and their order (each
 * variant's first making in typoVariants' order), are the same (prefix-typos.test.ts). A long
 * word that no index holds (the explorer searches every type for it) looked up some 2,000
 * variants per index, 110-210 µs each at 1M songs; most are now never made.
 */
export function prefixTypoRanges(index: SearchIndex, word: string): TermRange[] {
  const chars = [...word];
  // heads[j]: the terms starting with the word's first j characters, up to the first empty one.
  const heads: TermRange[] = [{ from: 0, to: index.terms }];
  for (let j = 1; j <= chars.length && heads[j - 1].to > heads[j - 1].from; j++) heads.push(index.prefixRange(chars.slice(0, j).join('')));
  const variants = typoVariants(word, index.alphabet, {
    open: (j) => j < heads.length && heads[j].to > heads[j].from,
    letters: (j, all) => {
      const head = heads[j];
      if (head.to - head.from >= READ_LETTERS_BELOW) return all;
      const held = new Set<string>();
      for (let id = head.from; id < head.to; id++) {
        const term = [...index.term(id)];
        if (term.length > j) held.add(term[j]);
      }
      return all.filter((c) => held.has(c));
    },
  });
  const ranges: TermRange[] = [];
  for (const variant of variants) {
    const range = index.prefixRange(variant);
    if (range.to > range.from) ranges.push(range);
  }
  return ranges;
}
