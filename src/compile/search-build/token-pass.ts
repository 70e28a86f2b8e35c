import { searchText } from '../../index-format/search/search-text.js';
import type { NumberColumnWriter, StringColumnWriter } from '../spill/columns.js';
import type { ExternalSorter } from '../../sort/external-sort.js';
import type { FixedSorter } from '../../sort/fixed-sort.js';
import { nameOf, type SearchInputs } from './inputs.js';
import { RecentTerms, tokenHash } from './token-hash.js';

/** The distinct tokens of a normalised text, in the order they first appear. */
export function uniqueTokens(normal: string): string[] {
  if (normal.length === 0) return [];
  const all = normal.split(' ');
  if (all.length > 16) return [...new Set(all)];
  // Most names repeat no word: checked pairwise, without a Set.
  for (let i = 1; i < all.length; i++) for (let j = 0; j < i; j++) if (all[i] === all[j]) return [...new Set(all)];
  return all;
}

/**
 * Where the token passes put each token: its occurrence as (hash lanes, token number) into
 * `occurrences` (token numbers count name tokens in rank order, then artist tokens), and its
 * UTF-8 bytes into `terms` unless it was seen lately.
 */
export class TokenSink {
  /** Tokens numbered so far. */
  count = 0;
  private readonly hash = new Uint32Array(2);
  private readonly bytes = Buffer.alloc(1 << 16);

  constructor(
    private readonly occurrences: FixedSorter,
    private readonly terms: ExternalSorter,
    private readonly recent: RecentTerms,
  ) {}

  add(token: string): void {
    if (this.count === 0xffffffff) throw new RangeError('search index: more than 2^32 - 1 tokens');
    const hash = this.hash;
    tokenHash(token, hash);
    this.occurrences.add(hash[0], hash[1], this.count++);
    if (this.recent.seen(token, hash[0])) return;
    const length = Buffer.byteLength(token, 'utf8');
    this.terms.add(length <= this.bytes.length ? this.bytes.subarray(0, this.bytes.write(token, 0, 'utf8')) : Buffer.from(token, 'utf8'));
  }
}

/**
 * The pass over documents in rank order: each normalised name to `names`, the running count of
 * name tokens to `docNameOffsets` (so docname.offsets is known before any term id is), each
 * distinct name token to `sink`, and which artists some document credits to `credited` (a bit
 * per artist ordinal).
 */
export function readNames(
  inputs: SearchInputs,
  names: StringColumnWriter,
  docNameOffsets: NumberColumnWriter,
  sink: TokenSink,
  credited: Uint8Array | null,
): void {
  const { ordinals, credits } = inputs;
  docNameOffsets.push(0);
  for (let r = 0; r < ordinals.length; r++) {
    const ordinal = ordinals[r];
    const normal = searchText(nameOf(inputs.names, ordinal));
    names.push(normal);
    for (const token of uniqueTokens(normal)) sink.add(token);
    docNameOffsets.push(sink.count);
    if (credits && credited) {
      for (let k = credits.offsets[ordinal]; k < credits.offsets[ordinal + 1]; k++) {
        const artist = credits.targets[k];
        credited[artist >>> 3] |= 1 << (artist & 7);
      }
    }
  }
}

/**
 * The pass over credited artists in ordinal order: each one's distinct name tokens to `sink`
 * (once per artist, however many documents credit it), and per artist ordinal the running count
 * of artist tokens to `artistOffsets` (artists no document credits hold none: their words are
 * not terms of this index).
 */
export function readArtists(artistNames: SearchInputs['names'], credited: Uint8Array, artistOffsets: NumberColumnWriter, sink: TokenSink): void {
  const first = sink.count;
  artistOffsets.push(0);
  for (let a = 0; a < artistNames.length; a++) {
    if (credited[a >>> 3] & (1 << (a & 7))) {
      for (const token of uniqueTokens(searchText(artistNames.get(a)))) sink.add(token);
    }
    artistOffsets.push(sink.count - first);
  }
}
