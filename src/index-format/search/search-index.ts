import { FormatError } from '../errors.js';
import type { HiddenDocs } from './hidden-docs.js';
import { TermBitmaps } from './shared-bitmaps.js';
import { FirstPages } from './first-pages.js';
import { hashKey } from '../tables/key-table.js';
import { deletions, hashRun, wordSetHash } from './search-keys.js';
import type { Shard } from '../shards/shard-reader.js';
import { exactNameRangeOf, type NameSections } from './name-range.js';
import { prefixRangeOf, Samples, StringTable, type TermRange } from './sorted-strings.js';

export type { TermRange } from './sorted-strings.js';

/**
 * Reads one search shard (see search-sections.ts for its sections). The u32 sections are
 * viewed whole, zero-copy, on first use (which verifies their pages once); after that every
 * operation is typed-array arithmetic or a binary search over a few dozen strings.
 */
/** Postings lists this long or longer are read ahead before they are read whole. */
const READ_AHEAD_BYTES = 64 * 1024;

export class SearchIndex {
  readonly type: string;
  readonly documents: number;
  readonly terms: number;
  /** Every character used by some term, sorted. */
  readonly alphabet: string;
  /** Whether the word-set keys include the credit keys (search-keys.ts, creditKey). */
  readonly creditKeys: boolean;
  private readonly views = new Map<string, Uint32Array>();
  private readonly tables = new Map<'terms' | 'names', StringTable>();
  private readonly sampleTables = new Map<'terms' | 'names', Samples>();
  /** Shared with the other indexes over the same file (shared-bitmaps.ts). */
  private readonly bitmaps: TermBitmaps;
  /** The compile's first pages of costly one-word searches (first-pages.ts), when the snapshot has them. */
  readonly firstPages: FirstPages | null;
  /** Documents a snapshot's deletes set takes out of service (set by the catalog), or null. */
  hidden: HiddenDocs | null = null;

  constructor(
    private readonly shard: Shard,
    pagesShard: Shard | null = null,
  ) {
    const meta = shard.meta;
    this.type = String(meta.type);
    this.documents = Number(meta.documents);
    this.terms = Number(meta.terms);
    this.alphabet = typeof meta.alphabet === 'string' ? meta.alphabet : '';
    this.creditKeys = meta.creditKeys === 1;
    this.bitmaps = new TermBitmaps(
      shard.identity,
      this.documents,
      this.terms,
      (name) => this.u32(name),
      undefined,
      (id) => this.readPostingsAhead(id),
    );
    if (this.u32('ordinals').length !== this.documents || this.u32('terms.offsets').length !== this.terms + 1) {
      throw new FormatError('E_FORMAT_HEADER', 'search index sections do not match their counts', shard.path);
    }
    this.firstPages = pagesShard ? new FirstPages(pagesShard) : null;
    if (this.firstPages && (this.firstPages.meta.type !== this.type || this.firstPages.meta.terms !== this.terms)) {
      throw new FormatError(
        'E_FORMAT_HEADER',
        `first pages ${this.firstPages.meta.type}/${this.firstPages.meta.terms} terms do not belong to search index ${this.type}/${this.terms} terms`,
        pagesShard!.path,
      );
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

  /**
   * Reads a long postings list ahead before it is read whole: the shard is advised MADV_RANDOM
   * (snapshot.ts), so its pages would fault in one at a time.
   */
  readPostingsAhead(term: number): void {
    const offsets = this.u32('postings.offsets');
    const count = offsets[term + 1] - offsets[term];
    if (count * 4 < READ_AHEAD_BYTES) return;
    this.shard.prefetch(this.shard.section('postings').start + offsets[term] * 4, count * 4);
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

  /** The strings of `terms.*` or `names.*`, their sections read (and verified) once. */
  private table(name: 'terms' | 'names'): StringTable {
    let table = this.tables.get(name);
    if (!table) {
      const section = this.shard.section(`${name}.bytes`);
      table = new StringTable(this.u32(`${name}.offsets`), this.shard.bytes(section.start, section.length), this.shard.path, name);
      this.tables.set(name, table);
    }
    return table;
  }

  /** Whether the documents at ranks `a` and `b` have the same normalised name. */
  namesEqual(a: number, b: number): boolean {
    const names = this.table('names');
    return names.byteLength(a) === names.byteLength(b) && names.comparePrefix(a, names.raw(b)) === 0;
  }

  /** Whether the normalised name of the document at `rank` is `bytes` (UTF-8). */
  nameEquals(rank: number, bytes: Uint8Array): boolean {
    const names = this.table('names');
    return names.byteLength(rank) === bytes.length && names.comparePrefix(rank, bytes) === 0;
  }

  /**
   * False when the normalised name of the document at `rank` differs from `bytes` (UTF-8) by
   * more than `slack` bytes on either side once their common byte prefix and suffix are set
   * aside (differentBytesWithin): a test of one edit by bytes, before any string is decoded.
   */
  nameDiffersWithin(rank: number, bytes: Uint8Array, slack: number): boolean {
    return this.table('names').differsWithin(rank, bytes, slack);
  }

  /** The sampled strings of the terms (in id order) or of the names (in name order), built on first use. */
  private samples(name: 'terms' | 'names', length: number, at: (position: number) => number): Samples {
    let samples = this.sampleTables.get(name);
    if (!samples) this.sampleTables.set(name, (samples = new Samples(length, at, this.table(name))));
    return samples;
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
    const terms = this.table('terms');
    return prefixRangeOf(
      this.terms,
      (i) => i,
      terms,
      Buffer.from(prefix, 'utf8'),
      this.samples('terms', this.terms, (i) => i),
    );
  }

  /** Positions in `names.order` whose name starts with `prefix`. */
  namePrefixRange(prefix: string): TermRange {
    const order = this.u32('names.order');
    return prefixRangeOf(
      order.length,
      (i) => order[i],
      this.table('names'),
      Buffer.from(prefix, 'utf8'),
      this.samples('names', order.length, (i) => order[i]),
    );
  }

  /** End of the names equal to `name` at the start of `range` (a name-prefix range of `name`). */
  nameEqualEnd(range: TermRange, name: string): number {
    const order = this.u32('names.order');
    const names = this.table('names');
    const length = Buffer.byteLength(name, 'utf8');
    let lo = range.from;
    let hi = range.to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (names.byteLength(order[mid]) === length) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Ranks keyed under the word set `sortedIds` (term ids ascending, no repeats), ascending,
   * at most `limit` of them: entries whose two hashes both agree.
   */
  wordSetRanks(sortedIds: ArrayLike<number>, limit: number): number[] {
    const run = hashRun(this.u32('keys.hashes'), wordSetHash(sortedIds, 0));
    const ranks = this.u32('keys.ranks');
    const checks = this.u32('keys.checks');
    const check = wordSetHash(sortedIds, 1);
    const out: number[] = [];
    for (let i = run.from; i < run.to && out.length < limit; i++) if (checks[i] === check) out.push(ranks[i]);
    return out;
  }

  /**
   * Ids of the terms that may be one edit from `word` (they share the word or one of its
   * one-deletion strings with it, by hash), without repeats; the caller checks the distance.
   */
  typoCandidates(word: string): Set<number> {
    const hashes = this.u32('typo.hashes');
    const values = this.u32('typo.terms');
    const found = new Set<number>();
    for (const probe of [word, ...deletions(word)]) {
      const run = hashRun(hashes, hashKey(probe));
      for (let i = run.from; i < run.to; i++) found.add(values[i]);
    }
    return found;
  }

  /** A bitmap of the documents holding term `id` (TermBitmaps), or null; `make` false: only one made already. */
  bitmap(id: number, make = true): Uint32Array | null {
    return this.bitmaps.of(id, make);
  }

  /**
   * The index's first-use work cut into short steps, for a warm-up: each verifies one piece of
   * at most `chunkBytes` of a section (what a first read of it would do whole), its first pages'
   * sections too, and the last ones build the sampled names and terms.
   */
  preparationSteps(chunkBytes = 2 ** 20): (() => void)[] {
    // A shard whose file an open snapshot shares (a takedown's) is checked as it is read, as there.
    const steps = this.shard.inheritsVerification ? [] : this.shard.verificationSteps(chunkBytes);
    if (this.firstPages) steps.push(...this.firstPages.preparationSteps(chunkBytes));
    steps.push(
      () => void this.namePrefixRange(''),
      () => void this.prefixRange(''),
    );
    return steps;
  }

  /** A bitmap of the documents holding any term of [from, to) (TermBitmaps.ofRange), or null. */
  rangeBitmap(from: number, to: number, make = true): Uint32Array | null {
    return this.bitmaps.ofRange(from, to, make);
  }

  /** How many bitmaps the index keeps so far (SearchIndex.bitmap). */
  get bitmapsKept(): number {
    return this.bitmaps.kept;
  }

  /** The terms that may get a bitmap (held by one document in BITMAP_DENSITY or more), most documents first. */
  bitmapTerms(): number[] {
    return this.bitmaps.candidates();
  }

  /** Positions in `names.order` of the documents whose normalised name is `name` (the last asked is kept: a match asks it at each stage). */
  exactNameRange(name: string): TermRange {
    if (name !== this.lastName) [this.lastName, this.lastRange] = [name, this.findNameRange(name)];
    return this.lastRange;
  }

  private lastName: string | null = null;
  private lastRange: TermRange = { from: 0, to: 0 };

  private findNameRange(name: string): TermRange {
    return exactNameRangeOf(this.nameSections(), name, this.firstPages?.nameRuns() ?? null);
  }

  /** What an exact-name lookup reads, gathered on first use. */
  private nameSections(): NameSections {
    if (!this.names) {
      const order = this.u32('names.order');
      this.names = {
        order,
        names: this.table('names'),
        samples: this.samples('names', order.length, (i) => order[i]).table,
        table: this.shard.hasSection('names.hashes') ? this.u32('names.hashes') : null,
      };
    }
    return this.names;
  }

  private names: NameSections | null = null;

  /** Whether the artists of the document at `rank` hold every term of `ids`. */
  artistsHold(rank: number, ids: ArrayLike<number>): boolean {
    const offsets = this.u32('docartist.offsets');
    const terms = this.u32('docartist.targets');
    outer: for (let i = 0; i < ids.length; i++) {
      for (let k = offsets[rank]; k < offsets[rank + 1]; k++) if (terms[k] === ids[i]) continue outer;
      return false;
    }
    return true;
  }

  private string(table: 'terms' | 'names', i: number): string {
    return this.table(table).at(i);
  }
}
