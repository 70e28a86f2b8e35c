import { SHARD_KINDS } from './constants.js';
import { FormatError } from './errors.js';
import { hashRun } from './search-keys.js';
import type { Shard } from './shard-reader.js';
import { ShardWriter, type WrittenShard } from './shard-writer.js';
import { GrowableU32, u32Bytes } from './u32.js';

/**
 * First pages of one-word searches, decided by the compile: for the terms of a search index whose
 * search is costly, the best `limit` hits and the total, exactly as the search engine ranks them
 * live. Sections (u32, little-endian), in the order they are written:
 * - `hits`: per hit, `tier << 29 | rank` (rank: the document's popularity rank);
 * - `terms`: the term ids that have a page, ascending;
 * - `totals`: per entry, the number of results (up to the search window);
 * - `offsets`: per entry + 1, where its hits start in `hits`.
 * The metadata names the engine version the pages were ranked by: a server whose engine ranks
 * differently ignores them (its live answers and these would disagree from page to page).
 *
 * Beside the pages, optionally, the counts of two-word searches of the densest terms (PairCounts):
 * - `pairs.terms`: the counted term ids, ascending;
 * - `pairs.counts`: row-major, terms x terms: entry [i][j] is how many of the first `pairScan`
 *   documents of term i (its postings, in popularity order) also hold term j, or
 *   PAIR_NOT_COUNTED where term i would never drive the scan (it has more documents than j).
 */
const RANK_BITS = 29;
const RANK_MASK = (1 << RANK_BITS) - 1;

export interface FirstPagesMeta {
  readonly type: string;
  /** The engine version that ranked the pages. */
  readonly engine: number;
  /** Hits kept per term: a page of up to this many (offset 0) is answered from here. */
  readonly limit: number;
  /** The search window the totals were counted to. */
  readonly window: number;
  /** The search index's term count, to check the two shards belong together. */
  readonly terms: number;
  /** The candidates each pair count covers (the engine's CANDIDATE_SCAN); 0 when no pairs are stored. */
  readonly pairScan?: number;
}

/** An entry of `pairs.counts` the compile did not count. */
export const PAIR_NOT_COUNTED = 0xffffffff;

/** Counts of the all-words tier of two-word searches, for the densest terms (see the sections above). */
export interface PairCounts {
  readonly terms: Uint32Array;
  readonly counts: Uint32Array;
  readonly scan: number;
}

/** One term's stored page: hits best first (`rank(i)`, `tier(i)`), and the total. */
export interface FirstPage {
  readonly total: number;
  readonly count: number;
  rank(i: number): number;
  tier(i: number): number;
}

/**
 * Writes the shard as pages arrive in ascending term order: hits go straight to the file, and
 * only three numbers per term stay in memory until the end.
 */
export class FirstPagesWriter {
  private readonly writer: ShardWriter;
  private readonly terms = new GrowableU32();
  private readonly totals = new GrowableU32();
  private readonly offsets = new GrowableU32();
  private readonly hitBytes = Buffer.alloc(4);
  private hitCount = 0;
  private last = -1;

  constructor(path: string, buildId: string) {
    this.writer = new ShardWriter(path, SHARD_KINDS.blob, buildId);
    this.writer.beginSection('hits');
    this.offsets.push(0);
  }

  get size(): number {
    return this.terms.length;
  }

  add(termId: number, total: number, hits: readonly { rank: number; tier: number }[]): void {
    if (termId <= this.last) throw new Error(`first pages: term ${termId} after ${this.last}`);
    this.last = termId;
    this.terms.push(termId);
    this.totals.push(total);
    for (const h of hits) {
      if (h.rank > RANK_MASK || h.tier > 7) throw new Error(`first pages: hit (${h.rank}, ${h.tier}) does not fit`);
      this.hitBytes.writeUInt32LE(((h.tier << RANK_BITS) | h.rank) >>> 0, 0);
      this.writer.write(this.hitBytes);
    }
    this.hitCount += hits.length;
    this.offsets.push(this.hitCount);
  }

  finish(meta: FirstPagesMeta, pairs?: PairCounts): WrittenShard {
    this.writer.endSection();
    this.writer.section('terms', u32Bytes(this.terms.view()));
    this.writer.section('totals', u32Bytes(this.totals.view()));
    this.writer.section('offsets', u32Bytes(this.offsets.view()));
    if (pairs) {
      if (pairs.counts.length !== pairs.terms.length ** 2) throw new Error(`first pages: ${pairs.counts.length} pair counts for ${pairs.terms.length} terms`);
      this.writer.section('pairs.terms', u32Bytes(pairs.terms));
      this.writer.section('pairs.counts', u32Bytes(pairs.counts));
    }
    return this.writer.finish({ ...meta, pairScan: pairs ? pairs.scan : 0 });
  }
}

/** Reads a first-pages shard; sections are viewed zero-copy on first use. */
export class FirstPages {
  readonly meta: FirstPagesMeta;
  private views: { terms: Uint32Array; totals: Uint32Array; offsets: Uint32Array; hits: Uint32Array } | null = null;
  private pairs: { terms: Uint32Array; counts: Uint32Array } | null | undefined = undefined;

  constructor(private readonly shard: Shard) {
    const m = shard.meta;
    this.meta = { type: String(m.type), engine: Number(m.engine), limit: Number(m.limit), window: Number(m.window), terms: Number(m.terms), pairScan: Number(m.pairScan ?? 0) };
  }

  private u32(name: string): Uint32Array {
    const s = this.shard.section(name);
    if (s.length % 4 !== 0) throw new FormatError('E_FORMAT_HEADER', `first-pages section ${name} is not u32-aligned`, this.shard.path);
    return this.shard.u32Array(s.start, s.length / 4);
  }

  private sections() {
    if (!this.views) {
      const views = { terms: this.u32('terms'), totals: this.u32('totals'), offsets: this.u32('offsets'), hits: this.u32('hits') };
      if (views.totals.length !== views.terms.length || views.offsets.length !== views.terms.length + 1) {
        throw new FormatError('E_FORMAT_HEADER', 'first-pages sections do not match their counts', this.shard.path);
      }
      this.views = views;
    }
    return this.views;
  }

  private pairSections(): { terms: Uint32Array; counts: Uint32Array } | null {
    if (this.pairs === undefined) {
      this.pairs = null;
      if (this.shard.hasSection('pairs.terms')) {
        const terms = this.u32('pairs.terms');
        const counts = this.u32('pairs.counts');
        if (counts.length !== terms.length ** 2) throw new FormatError('E_FORMAT_HEADER', 'first-pages pair sections do not match their counts', this.shard.path);
        this.pairs = { terms, counts };
      }
    }
    return this.pairs;
  }

  /**
   * How many of the first `meta.pairScan` documents of term `driver` also hold term `other`, as
   * the compile counted it; -1 when it did not (either term is not among the counted ones, or
   * `driver` has more documents than `other`).
   */
  pairCount(driver: number, other: number): number {
    const pairs = this.pairSections();
    if (!pairs) return -1;
    const i = hashRun(pairs.terms, driver);
    const j = hashRun(pairs.terms, other);
    if (i.to === i.from || j.to === j.from) return -1;
    const count = pairs.counts[i.from * pairs.terms.length + j.from];
    return count === PAIR_NOT_COUNTED ? -1 : count;
  }

  /** The stored page of a term id, or null when the compile kept none for it. */
  page(termId: number): FirstPage | null {
    const { terms, totals, offsets, hits } = this.sections();
    const entry = hashRun(terms, termId); // term ids are unique: a run of one, or none
    if (entry.to === entry.from) return null;
    const at = entry.from;
    const from = offsets[at];
    return {
      total: totals[at],
      count: offsets[at + 1] - from,
      rank: (i) => hits[from + i] & RANK_MASK,
      tier: (i) => hits[from + i] >>> RANK_BITS,
    };
  }
}
