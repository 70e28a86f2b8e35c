import { FormatError } from './errors.js';
import { hashKey } from './key-table.js';
import type { Shard } from './shard-reader.js';

/** A half-open range of term ids [from, to). */
export interface TermRange {
  readonly from: number;
  readonly to: number;
}

/**
 * Reads one search shard (see search-index-writer.ts for its sections). The u32 sections are
 * viewed whole, zero-copy, on first use (which verifies their pages once); after that every
 * operation is typed-array arithmetic or a binary search over a few dozen strings.
 */
export class SearchIndex {
  readonly type: string;
  readonly documents: number;
  readonly terms: number;
  /** Every character used by some term, sorted. */
  readonly alphabet: string;
  private readonly views = new Map<string, Uint32Array>();

  constructor(private readonly shard: Shard) {
    const meta = shard.meta;
    this.type = String(meta.type);
    this.documents = Number(meta.documents);
    this.terms = Number(meta.terms);
    this.alphabet = typeof meta.alphabet === 'string' ? meta.alphabet : '';
    if (this.u32('ordinals').length !== this.documents || this.u32('terms.offsets').length !== this.terms + 1) {
      throw new FormatError('E_FORMAT_HEADER', 'search index sections do not match their counts', shard.path);
    }
  }

  u32(name: string): Uint32Array {
    let view = this.views.get(name);
    if (!view) {
      const section = this.shard.section(name);
      if (section.length % 4 !== 0) throw new FormatError('E_FORMAT_HEADER', `search section ${name} is not u32-aligned`, this.shard.path);
      this.views.set(name, (view = this.shard.u32Array(section.start, section.length / 4)));
    }
    return view;
  }

  ordinal(rank: number): number {
    return this.u32('ordinals')[rank];
  }

  term(id: number): string {
    return this.string('terms', id);
  }

  /** The normalised name of the document at `rank`. */
  name(rank: number): string {
    return this.string('names', rank);
  }

  /** Id of an exact term, or -1. */
  termId(term: string): number {
    const slots = this.u32('terms.hash');
    const capacity = slots.length / 2;
    const mask = capacity - 1;
    const hash = hashKey(term);
    let slot = hash & mask;
    for (let probes = 0; probes < capacity; probes++) {
      const id = slots[slot * 2 + 1];
      if (id === 0) return -1;
      if (slots[slot * 2] === hash && this.term(id - 1) === term) return id - 1;
      slot = (slot + 1) & mask;
    }
    return -1;
  }

  /** Term ids starting with `prefix` (empty range when none). */
  prefixRange(prefix: string): TermRange {
    return prefixRangeOf(this.terms, (i) => this.term(i), prefix);
  }

  /** Positions in `names.order` whose name starts with `prefix`. */
  namePrefixRange(prefix: string): TermRange {
    const order = this.u32('names.order');
    return prefixRangeOf(order.length, (i) => this.name(order[i]), prefix);
  }

  /** End of the names equal to `name` at the start of `range` (a name-prefix range of `name`). */
  nameEqualEnd(range: TermRange, name: string): number {
    const order = this.u32('names.order');
    let lo = range.from;
    let hi = range.to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.name(order[mid]) === name) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Number of postings of a term range (documents counted once per term). */
  postingCount(range: TermRange): number {
    const offsets = this.u32('postings.offsets');
    return offsets[range.to] - offsets[range.from];
  }

  private string(table: 'terms' | 'names', i: number): string {
    const offsets = this.u32(`${table}.offsets`);
    const section = this.shard.section(`${table}.bytes`);
    const from = offsets[i];
    const to = offsets[i + 1];
    if (to < from || to > section.length) throw new FormatError('E_FORMAT_RECORD', `${table} entry ${i} is out of bounds`, this.shard.path);
    return this.shard.bytes(section.start + from, to - from).toString('utf8');
  }
}

/** The range [from, to) of a sorted sequence of strings that start with `prefix`. */
export function prefixRangeOf(length: number, at: (i: number) => string, prefix: string): TermRange {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at(mid) < prefix) lo = mid + 1;
    else hi = mid;
  }
  const from = lo;
  hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at(mid).startsWith(prefix)) lo = mid + 1;
    else hi = mid;
  }
  return { from, to: lo };
}
