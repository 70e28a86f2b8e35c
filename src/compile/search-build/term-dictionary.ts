import { hashKey } from '../../index-format/tables/key-table.js';
import { typoKeyHashes } from '../../index-format/search/search-keys.js';
import type { NumberColumnWriter, StringColumnWriter } from '../spill/columns.js';
import type { ExternalSorter } from '../../sort/external-sort.js';
import type { FixedSorter } from '../../sort/fixed-sort.js';
import { tokenHash } from './token-hash.js';

/** Where numbering the terms writes to. */
export interface TermOutputs {
  /** Terms in id order (terms.offsets / terms.bytes). */
  readonly strings: StringColumnWriter;
  /** hashKey of each term in id order, for terms.hash once the count is known. */
  readonly keyHashes: NumberColumnWriter;
  /** (hash lanes, term id), for the join with the token occurrences. */
  readonly byHash: FixedSorter;
  /** (typo key hash, term id), added in id order: typo.* */
  readonly typo: FixedSorter;
}

export interface TermDictionary {
  readonly count: number;
  /** Every character (code point) some term uses. */
  readonly alphabet: Set<string>;
}

/**
 * Reads the term strings in byte order once, dropping repeats: the i-th distinct one is term i.
 * Memory: the previous term's bytes and the alphabet; everything per term goes to `out`.
 */
export function numberTerms(terms: ExternalSorter, out: TermOutputs): TermDictionary {
  const alphabet = new Set<string>();
  const hash = new Uint32Array(2);
  let previous = Buffer.alloc(256);
  let previousLength = -1;
  let count = 0;
  terms.drain((buffer, keyStart, keyEnd) => {
    const length = keyEnd - keyStart;
    if (length === previousLength && buffer.compare(previous, 0, length, keyStart, keyEnd) === 0) return;
    if (length > previous.length) previous = Buffer.alloc(length * 2);
    buffer.copy(previous, 0, keyStart, keyEnd);
    previousLength = length;
    const id = count++;
    const term = buffer.toString('utf8', keyStart, keyEnd);
    out.strings.push(term);
    out.keyHashes.push(hashKey(term));
    tokenHash(term, hash);
    out.byHash.add(hash[0], hash[1], id);
    for (const c of term) alphabet.add(c);
    for (const typoHash of typoKeyHashes(term)) out.typo.add(typoHash, id);
  });
  return { count, alphabet };
}
