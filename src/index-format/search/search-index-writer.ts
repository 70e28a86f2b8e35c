import { SHARD_KINDS } from '../constants.js';
import { hashKey } from '../tables/key-table.js';
import { hashedTable, sortByBytes, typoTable, wordSetHash } from './search-keys.js';
import { searchText } from './search-text.js';
import { ShardWriter, type WrittenShard } from '../shards/shard-writer.js';
import { GrowableU32, u32Bytes } from '../u32.js';

/**
 * The searchable documents of one resource type, in popularity order: document r is the r-th
 * most popular resource (`ordinals[r]` is its ordinal), so every postings list sorted by r is
 * also sorted by popularity and "best first" is "smallest first".
 */
export interface SearchDocuments {
  readonly type: string;
  /** Ordinal of the document at each popularity rank. */
  readonly ordinals: Uint32Array;
  /** Display name by ordinal. */
  readonly names: readonly string[];
  /** Credited artists by ordinal (songs and albums): `targets[offsets[o]..offsets[o+1])` index `artistNames`. */
  readonly artists?: { readonly offsets: Uint32Array; readonly targets: Uint32Array; readonly artistNames: readonly string[] };
}

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
 * - `keys.hashes` / `keys.ranks` / `keys.checks`: word-set keys (search-keys.ts): per r, the
 *   hashes of its name's term ids, and of those joined with each credited artist's, sorted by
 *   (hash, r);
 * - `typo.hashes` / `typo.terms`: typo keys (search-keys.ts): each term under its own hash and
 *   those of its one-deletion strings, sorted by (hash, term id);
 * - `ordinals`: r -> record ordinal.
 *
 * Two writers produce these bytes: `writeSearchIndex` below, in memory, for small inputs and as
 * the reference, and the compile's out-of-core build (src/compile/search-build/), which must
 * write the same bytes and so shares SEARCH_SECTIONS, termHashCapacity and searchShardMeta.
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
  return { type, documents, terms, alphabet: [...alphabet].sort(compareCodeUnits).join('') };
}

/** Writes one search shard from documents held in memory (see SEARCH_SECTIONS for its bytes). */
export function writeSearchIndex(path: string, buildId: string, docs: SearchDocuments): WrittenShard {
  const count = docs.ordinals.length;
  const normalNames: string[] = new Array(count);
  const termIds = new Map<string, number>();
  const nameTerms: string[][] = new Array(count);
  const artistTerms: string[][] = new Array(count);
  const note = (tokens: string[]) => {
    for (const t of tokens) if (!termIds.has(t)) termIds.set(t, 0);
    return tokens;
  };
  const artistTokens = docs.artists ? docs.artists.artistNames.map((n) => unique(searchText(n))) : [];
  for (let r = 0; r < count; r++) {
    const ordinal = docs.ordinals[r];
    const name = searchText(docs.names[ordinal] ?? '');
    normalNames[r] = name;
    nameTerms[r] = note(unique(name));
    artistTerms[r] = docs.artists ? note(creditedTokens(docs.artists, artistTokens, ordinal)) : [];
  }
  const terms = sortByBytes(termIds.keys());
  terms.forEach((t, id) => termIds.set(t, id));

  const docName = adjacency(nameTerms, termIds);
  const docArtist = adjacency(artistTerms, termIds);
  const postings = invertDocuments(count, terms.length, docName, docArtist);
  const nameOrder = orderByName(normalNames);
  const keys = wordSetKeys(count, docName, docs.artists ? artistTokens.map((tokens) => tokens.map((t) => termIds.get(t)!)) : null, docs);
  const typo = typoTable(terms);

  const termBytes = stringTable(terms);
  const names = stringTable(normalNames);
  const sections: Record<SearchSection, Uint8Array> = {
    'terms.offsets': u32Bytes(termBytes.offsets),
    'terms.bytes': termBytes.bytes,
    'terms.hash': u32Bytes(termHash(terms)),
    'postings.offsets': u32Bytes(postings.offsets),
    postings: u32Bytes(postings.targets),
    'docname.offsets': u32Bytes(docName.offsets),
    'docname.targets': u32Bytes(docName.targets),
    'docartist.offsets': u32Bytes(docArtist.offsets),
    'docartist.targets': u32Bytes(docArtist.targets),
    'names.offsets': u32Bytes(names.offsets),
    'names.bytes': names.bytes,
    'names.order': u32Bytes(nameOrder),
    'keys.hashes': u32Bytes(keys.hashes),
    'keys.ranks': u32Bytes(keys.values),
    'keys.checks': u32Bytes(keys.checks!),
    'typo.hashes': u32Bytes(typo.hashes),
    'typo.terms': u32Bytes(typo.values),
    ordinals: u32Bytes(docs.ordinals),
  };
  const writer = new ShardWriter(path, SHARD_KINDS.blob, buildId);
  for (const name of SEARCH_SECTIONS) writer.section(name, sections[name]);
  return writer.finish(searchShardMeta(docs.type, count, terms.length, alphabetOf(terms)));
}

/** Ranks sorted by name (UTF-8 bytes), ties by rank: a sort of the distinct names, then a counting sort. */
function orderByName(names: readonly string[]): Uint32Array {
  const distinct = sortByBytes(new Set(names));
  const dense = new Map<string, number>();
  distinct.forEach((n, i) => dense.set(n, i));
  const starts = new Uint32Array(distinct.length + 1);
  const keys = new Uint32Array(names.length);
  names.forEach((n, r) => starts[(keys[r] = dense.get(n)!) + 1]++);
  for (let i = 0; i < distinct.length; i++) starts[i + 1] += starts[i];
  const order = new Uint32Array(names.length);
  for (let r = 0; r < names.length; r++) order[starts[keys[r]]++] = r;
  return order;
}

/**
 * Word-set keys: per rank, its name's term ids as a set, that set joined with each credited
 * artist's term ids, and with all of them when there are several (a set equal to one already
 * keyed is keyed once).
 */
function wordSetKeys(count: number, docName: Adjacency, artistTermIds: number[][] | null, docs: SearchDocuments): ReturnType<typeof hashedTable> {
  const hashes = new GrowableU32(count * 2);
  const checks = new GrowableU32(count * 2);
  const ranks = new GrowableU32(count * 2);
  const ids = new Set<number>();
  const key = (r: number) => {
    const sorted = Uint32Array.from(ids).sort();
    hashes.push(wordSetHash(sorted, 0));
    checks.push(wordSetHash(sorted, 1));
    ranks.push(r);
  };
  for (let r = 0; r < count; r++) {
    ids.clear();
    for (let k = docName.offsets[r]; k < docName.offsets[r + 1]; k++) ids.add(docName.targets[k]);
    if (ids.size > 0) key(r);
    if (!artistTermIds || !docs.artists) continue;
    const ordinal = docs.ordinals[r];
    const from = docs.artists.offsets[ordinal];
    const to = docs.artists.offsets[ordinal + 1];
    for (let k = from; k < to; k++) {
      const before = ids.size;
      const added: number[] = [];
      for (const t of artistTermIds[docs.artists.targets[k]]) {
        if (!ids.has(t)) {
          ids.add(t);
          added.push(t);
        }
      }
      if (ids.size > before) key(r);
      for (const t of added) ids.delete(t);
    }
    if (to - from > 1) {
      // Every credited artist together ("title A & B").
      const before = ids.size;
      for (let k = from; k < to; k++) for (const t of artistTermIds[docs.artists.targets[k]]) ids.add(t);
      if (ids.size > before) key(r);
    }
  }
  return hashedTable(hashes.view(), ranks.view(), hashes.length, checks.view());
}

function creditedTokens(artists: NonNullable<SearchDocuments['artists']>, tokens: string[][], ordinal: number): string[] {
  const from = artists.offsets[ordinal];
  const to = artists.offsets[ordinal + 1];
  if (to - from === 1) return tokens[artists.targets[from]];
  const out = new Set<string>();
  for (let k = from; k < to; k++) for (const t of tokens[artists.targets[k]]) out.add(t);
  return [...out];
}

function unique(normal: string): string[] {
  return normal.length === 0 ? [] : [...new Set(normal.split(' '))];
}

interface Adjacency {
  offsets: Uint32Array;
  targets: Uint32Array;
}

function adjacency(lists: string[][], ids: Map<string, number>): Adjacency {
  const offsets = new Uint32Array(lists.length + 1);
  const targets = new GrowableU32(lists.length * 3);
  lists.forEach((list, r) => {
    for (const t of list) targets.push(ids.get(t)!);
    offsets[r + 1] = targets.length;
  });
  return { offsets, targets: targets.view().slice() };
}

/** Term id -> ranks holding it (in the name or the artists), ascending. */
function invertDocuments(count: number, termCount: number, ...sides: Adjacency[]): Adjacency {
  const lastSeen = new Int32Array(termCount).fill(-1);
  const sizes = new Uint32Array(termCount);
  const visit = (fn: (term: number, r: number) => void) => {
    lastSeen.fill(-1);
    for (let r = 0; r < count; r++) {
      for (const side of sides) {
        for (let k = side.offsets[r]; k < side.offsets[r + 1]; k++) {
          const term = side.targets[k];
          if (lastSeen[term] === r) continue;
          lastSeen[term] = r;
          fn(term, r);
        }
      }
    }
  };
  visit((term) => sizes[term]++);
  const offsets = new Uint32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) offsets[t + 1] = offsets[t] + sizes[t];
  const targets = new Uint32Array(offsets[termCount]);
  const fill = offsets.slice(0, termCount);
  visit((term, r) => (targets[fill[term]++] = r));
  return { offsets, targets };
}

function stringTable(strings: readonly string[]): { offsets: Uint32Array; bytes: Buffer } {
  const offsets = new Uint32Array(strings.length + 1);
  let total = 0;
  strings.forEach((s, i) => (offsets[i + 1] = total += Buffer.byteLength(s, 'utf8')));
  const bytes = Buffer.alloc(total);
  strings.forEach((s, i) => bytes.write(s, offsets[i], 'utf8'));
  return { offsets, bytes };
}

/** Capacity a power of two at most half full; pairs of [hash, term id + 1]. */
function termHash(terms: readonly string[]): Uint32Array {
  const capacity = termHashCapacity(terms.length);
  const slots = new Uint32Array(capacity * 2);
  const mask = capacity - 1;
  terms.forEach((term, id) => {
    const hash = hashKey(term);
    let slot = hash & mask;
    while (slots[slot * 2 + 1] !== 0) slot = (slot + 1) & mask;
    slots[slot * 2] = hash;
    slots[slot * 2 + 1] = id + 1;
  });
  return slots;
}

/** Every character used by some term: the letters typo variants are drawn from. */
function alphabetOf(terms: readonly string[]): Set<string> {
  const chars = new Set<string>();
  for (const t of terms) for (const c of t) chars.add(c);
  return chars;
}
