import type { NumberColumnWriter } from '../spill/columns.js';
import type { FixedSorter } from '../../sort/fixed-sort.js';

/**
 * Gives every token occurrence its term id: a merge-join of the occurrences (hash lanes, token
 * number) and the terms (hash lanes, term id), both read in hash order, into `byToken` as
 * (token number, term id). Two terms with the same 64-bit hash stop the build: the occurrences
 * could not tell them apart.
 */
export function joinTokens(occurrences: FixedSorter, termsByHash: FixedSorter, byToken: FixedSorter): void {
  const terms = termsByHash.cursor();
  const tokens = occurrences.cursor();
  let h1 = 0;
  let h2 = 0;
  let term = -1;
  const nextTerm = (): boolean => {
    if (!terms.next()) return false;
    const w = terms.words;
    const at = terms.at;
    if (term >= 0 && w[at] === h1 && w[at + 1] === h2)
      throw new Error(`search index: terms ${term} and ${w[at + 2]} share a 64-bit hash; the build cannot tell them apart`);
    h1 = w[at];
    h2 = w[at + 1];
    term = w[at + 2];
    return true;
  };
  try {
    while (tokens.next()) {
      const w = tokens.words;
      const at = tokens.at;
      const a = w[at];
      const b = w[at + 1];
      while (term < 0 || h1 < a || (h1 === a && h2 < b)) {
        if (!nextTerm()) throw new Error('search index: a token occurrence has no term');
      }
      if (h1 !== a || h2 !== b) throw new Error('search index: a token occurrence has no term');
      byToken.add(w[at + 2], term);
    }
    while (nextTerm());
  } finally {
    tokens.close();
    terms.close();
  }
}

/**
 * Reads (token number, term id) in token order: the first `nameTokens` are the name tokens
 * (docname.targets), the rest each credited artist's tokens in artist ordinal order.
 */
export function splitTermIds(byToken: FixedSorter, nameTokens: number, docNameTargets: NumberColumnWriter, artistTerms: NumberColumnWriter): void {
  let expected = 0;
  byToken.drain((words, at) => {
    if (words[at] !== expected++) throw new Error('search index: a token lost its term id');
    (words[at] < nameTokens ? docNameTargets : artistTerms).push(words[at + 1]);
  });
}
