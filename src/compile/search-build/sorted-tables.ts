import type { NumberColumnWriter } from '../spill/columns.js';
import type { FixedSorter } from '../../sort/fixed-sort.js';

/**
 * postings.offsets / postings from (term id, rank) records sorted by term id, added in rank order
 * (so each term's ranks come out ascending) and never twice for one document.
 */
export function drainPostings(sorted: FixedSorter, termCount: number, offsets: NumberColumnWriter, ranks: NumberColumnWriter): void {
  let term = 0;
  let count = 0;
  offsets.push(0);
  sorted.drain((words, at) => {
    for (; term < words[at]; term++) offsets.push(count);
    ranks.push(words[at + 1]);
    count++;
  });
  for (; term < termCount; term++) offsets.push(count);
}

/**
 * typo.* from (hash, term id) records sorted by hash and added in term id order, a repeated
 * entry (two deletions of one term with the same hash) kept once, as hashedTable does.
 */
export function drainTypoKeys(sorted: FixedSorter, hashes: NumberColumnWriter, terms: NumberColumnWriter): void {
  let first = true;
  let hash = 0;
  let term = 0;
  sorted.drain((words, at) => {
    if (!first && words[at] === hash && words[at + 1] === term) return;
    first = false;
    hash = words[at];
    term = words[at + 1];
    hashes.push(hash);
    terms.push(term);
  });
}

/**
 * keys.* from (hash, rank, check) records sorted by hash and added in rank order: entries are
 * ordered by (hash, rank, check) and an entry equal in all three kept once, as hashedTable does.
 * The checks of one (hash, rank) are sorted here: one document has a few keys at most.
 */
export function drainWordSetKeys(sorted: FixedSorter, hashes: NumberColumnWriter, ranks: NumberColumnWriter, checks: NumberColumnWriter): void {
  let hash = 0;
  let rank = -1;
  const pending: number[] = [];
  const flush = () => {
    pending.sort((a, b) => a - b);
    for (let i = 0; i < pending.length; i++) {
      if (i > 0 && pending[i] === pending[i - 1]) continue;
      hashes.push(hash);
      ranks.push(rank);
      checks.push(pending[i]);
    }
    pending.length = 0;
  };
  sorted.drain((words, at) => {
    if (words[at] !== hash || words[at + 1] !== rank) {
      flush();
      hash = words[at];
      rank = words[at + 1];
    }
    pending.push(words[at + 2]);
  });
  flush();
}
