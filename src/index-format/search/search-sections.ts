/**
 * Sections of a search shard, in the order they are written (all u32 arrays are little-endian;
 * r = popularity rank):
 * - `terms.offsets` / `terms.bytes`: every distinct token, sorted by UTF-8 bytes, so the terms
 *   sharing a prefix form one contiguous id range;
 * - `terms.hash`: open-addressing table of [hash, term id + 1] pairs for exact term lookups
 *   (termHashCapacity slots, linear probing, terms inserted in id order);
 * - `postings.offsets` / `postings`: per term id, the ranks r of the documents holding it,
 *   ascending. A prefix range's postings are one contiguous slice;
 * - `docname.*` / `docartist.*`: per r, the term ids of its name and of its artists (forward
 *   index, to check the other words of a query against a candidate), each in the order its
 *   words first appear;
 * - `names.offsets` / `names.bytes`: per r, its normalised name; `names.order`: the ranks sorted by
 *   normalised name as UTF-8 bytes (ties by r), for exact-name and name-prefix ranges;
 *   `names.hashes`: per distinct name, [hash, from, to) of its run in `names.order`, sorted by
 *   hash (the name table, name-range.ts);
 * - `keys.hashes` / `keys.ranks` / `keys.checks`: word-set keys (search-keys.ts): per r, the
 *   hashes of its name's term ids, and of those joined with each credited artist's, and its
 *   credit keys (meta `creditKeys`: 1; snapshots before them lack it), sorted by (hash, r);
 * - `typo.hashes` / `typo.terms`: typo keys (search-keys.ts): each term under its own hash and
 *   those of its one-deletion strings, sorted by (hash, term id);
 * - `ordinals`: r -> record ordinal.
 *
 * One writer produces these bytes: the compile's out-of-core build (src/compile/search-build/);
 * the server reads them with search-index.ts.
 */
export const SEARCH_SECTIONS = [
  'terms.offsets',
  'terms.bytes',
  'terms.hash',
  'postings.offsets',
  'postings',
  'docname.offsets',
  'docname.targets',
  'docartist.offsets',
  'docartist.targets',
  'names.offsets',
  'names.bytes',
  'names.order',
  'names.hashes',
  'keys.hashes',
  'keys.ranks',
  'keys.checks',
  'typo.hashes',
  'typo.terms',
  'ordinals',
] as const;

export type SearchSection = (typeof SEARCH_SECTIONS)[number];

/** Slots of `terms.hash` for `termCount` terms: a power of two, at least 16, at most half full. */
export function termHashCapacity(termCount: number): number {
  let capacity = 16;
  while (capacity < termCount * 2) capacity *= 2;
  return capacity;
}

const compareCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The shard's metadata; `alphabet` is every character (code point) used by some term. */
export function searchShardMeta(type: string, documents: number, terms: number, alphabet: Iterable<string>): Record<string, unknown> {
  return { type, documents, terms, alphabet: [...alphabet].sort(compareCodeUnits).join(''), creditKeys: 1 };
}
