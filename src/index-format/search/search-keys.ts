/**
 * Two hashed lookup tables of the search index, shared by the writer and the reader so the two
 * hash alike. Both are stored as a pair of parallel u32 arrays sorted by (hash, value), so a
 * lookup is one binary search for the run of equal hashes; a hash may collide, so the reader
 * checks every value it gets back.
 *
 * - Word-set keys: per document, the set of its name's term ids, and that set joined with the
 *   term ids of each credited artist, and of all of them. A query whose words are exactly one of
 *   those sets ("title", "title artist", "title A & B", in any order) finds the document with
 *   one lookup.
 * - Credit keys: per document and credited artist, its name's term ids in the order they first
 *   appear, a separator, and the artist's name's (creditKey): the songs titled so by an artist
 *   named so, which the matcher finds under a title thousands share without reading them.
 * - Typo keys: per term, the term and every string one deletion away from it (symmetric
 *   deletion), so the terms one edit away from a word are found by looking up the word and its
 *   own deletions, never by generating every substitution and insertion.
 */

import { hashKey } from '../tables/key-table.js';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Between a credit key's title and artist ids: no term id is this large. */
export const CREDIT_KEY_SEPARATOR = 0xffffffff;

/**
 * A credit key (hashed as wordSetHash hashes a set, in the order given): the title's term ids,
 * each once in the order it first appears, CREDIT_KEY_SEPARATOR, and the artist's likewise.
 */
export function creditKey(titleIds: ArrayLike<number>, artistIds: ArrayLike<number>): Uint32Array {
  const key = new Uint32Array(titleIds.length + 1 + artistIds.length);
  return key.subarray(0, creditKeyInto(key, titleIds, artistIds));
}

/** creditKey written into `key` (long enough for both lists and the separator); returns its length. */
export function creditKeyInto(key: Uint32Array, titleIds: ArrayLike<number>, artistIds: ArrayLike<number>): number {
  let n = 0;
  const push = (ids: ArrayLike<number>) => {
    const from = n;
    next: for (let i = 0; i < ids.length; i++) {
      for (let k = from; k < n; k++) if (key[k] === ids[i]) continue next;
      key[n++] = ids[i];
    }
  };
  push(titleIds);
  key[n++] = CREDIT_KEY_SEPARATOR;
  push(artistIds);
  return n;
}

/**
 * Hash of a set of term ids given sorted ascending without repeats. The keys store two: the
 * table is sorted by the first (seed 0), and the second (seed 1) confirms a match, so a
 * document is taken for another set's only when 64 bits of hash agree.
 */
export function wordSetHash(sortedIds: ArrayLike<number>, seed: 0 | 1 = 0): number {
  let h = (seed === 0 ? FNV_OFFSET : 0x9747b28c) ^ sortedIds.length;
  for (let i = 0; i < sortedIds.length; i++) {
    const v = sortedIds[i];
    h = Math.imul(h ^ (v & 0xffff), FNV_PRIME);
    h = Math.imul(h ^ (v >>> 16), FNV_PRIME);
    if (seed === 1) h ^= h >>> 15;
  }
  return h >>> 0;
}

/** The strings one deletion (of a code point) away from `word`, without repeats. */
export function deletions(word: string): string[] {
  const chars = [...word];
  const out = new Set<string>();
  for (let i = 0; i < chars.length; i++) out.add(chars.slice(0, i).join('') + chars.slice(i + 1).join(''));
  out.delete('');
  return [...out];
}

/** Shortest and longest terms the typo keys hold: a 4..32 character word is one edit from 3..33. */
export const TYPO_TERM_MIN = 3;
export const TYPO_TERM_MAX = 33;

export interface HashedTable {
  readonly hashes: Uint32Array;
  readonly values: Uint32Array;
  /** The second hash of each entry, when the table has one. */
  readonly checks?: Uint32Array;
}

/** Sorts (hash, value) entries by hash, then value, then check, dropping repeated entries. */
export function hashedTable(hashes: ArrayLike<number>, values: ArrayLike<number>, count: number, checks?: ArrayLike<number>): HashedTable {
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  order.sort((a, b) => hashes[a] - hashes[b] || values[a] - values[b] || (checks ? checks[a] - checks[b] : 0));
  const outHashes = new Uint32Array(count);
  const outValues = new Uint32Array(count);
  const outChecks = new Uint32Array(checks ? count : 0);
  let n = 0;
  for (let k = 0; k < count; k++) {
    const i = order[k];
    if (n > 0 && outHashes[n - 1] === hashes[i] && outValues[n - 1] === values[i] && (!checks || outChecks[n - 1] === checks[i])) continue;
    outHashes[n] = hashes[i];
    outValues[n] = values[i];
    if (checks) outChecks[n] = checks[i];
    n++;
  }
  return { hashes: outHashes.slice(0, n), values: outValues.slice(0, n), ...(checks ? { checks: outChecks.slice(0, n) } : {}) };
}

const SURROGATE = /[\ud800-\udfff]/;

/** Strings sorted by their UTF-8 bytes (= by code point), the order readers compare bytes in. */
export function sortByBytes(strings: Iterable<string>): string[] {
  const all = [...strings];
  // Without surrogate pairs every character is one UTF-16 unit, and the default sort (by units) is by code point.
  if (!all.some((s) => SURROGATE.test(s))) return all.sort();
  const entries = all.map((s) => ({ s, b: Buffer.from(s, 'utf8') }));
  entries.sort((x, y) => Buffer.compare(x.b, y.b));
  return entries.map((e) => e.s);
}

/** The run [from, to) of `hashes` (ascending) equal to `hash`, looked for within [from, end). */
export function hashRun(hashes: Uint32Array, hash: number, from = 0, end = hashes.length): { from: number; to: number } {
  let lo = from;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (hashes[mid] < hash) lo = mid + 1;
    else hi = mid;
  }
  // Its end: most runs are a few entries, looked at one by one; a long one (a word set thousands
  // of documents share) by steps doubling, then a binary search of the last step.
  let to = lo;
  while (to < end && to < lo + SHORT_RUN && hashes[to] === hash) to++;
  if (to < lo + SHORT_RUN || to === end || hashes[to] !== hash) return { from: lo, to };
  let step = SHORT_RUN;
  let past = to;
  while (past < end && hashes[past] === hash) {
    to = past + 1;
    past = Math.min(end, past + step);
    step *= 2;
  }
  while (to < past) {
    const mid = (to + past) >>> 1;
    if (hashes[mid] === hash) to = mid + 1;
    else past = mid;
  }
  return { from: lo, to };
}

/** Entries of a hash run looked at one by one before its end is looked for by doubling steps. */
const SHORT_RUN = 8;

/** The hashes a term is keyed under in the typo table: its own and its deletions', when it has 3..33 characters; none otherwise. */
export function typoKeyHashes(term: string): number[] {
  const length = [...term].length;
  if (length < TYPO_TERM_MIN || length > TYPO_TERM_MAX) return [];
  return [hashKey(term), ...deletions(term).map(hashKey)];
}

/** Typo keys of a sorted term list: each term of 3..33 characters under its own hash and its deletions'. */
export function typoTable(terms: readonly string[]): HashedTable {
  const hashes: number[] = [];
  const values: number[] = [];
  terms.forEach((term, id) => {
    for (const hash of typoKeyHashes(term)) {
      hashes.push(hash);
      values.push(id);
    }
  });
  return hashedTable(hashes, values, hashes.length);
}
