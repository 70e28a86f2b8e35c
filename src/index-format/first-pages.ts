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

  finish(meta: FirstPagesMeta): WrittenShard {
    this.writer.endSection();
    this.writer.section('terms', u32Bytes(this.terms.view()));
    this.writer.section('totals', u32Bytes(this.totals.view()));
    this.writer.section('offsets', u32Bytes(this.offsets.view()));
    return this.writer.finish({ ...meta });
  }
}

/** Reads a first-pages shard; sections are viewed zero-copy on first use. */
export class FirstPages {
  readonly meta: FirstPagesMeta;
  private views: { terms: Uint32Array; totals: Uint32Array; offsets: Uint32Array; hits: Uint32Array } | null = null;

  constructor(private readonly shard: Shard) {
    const m = shard.meta;
    this.meta = { type: String(m.type), engine: Number(m.engine), limit: Number(m.limit), window: Number(m.window), terms: Number(m.terms) };
  }

  private sections() {
    if (!this.views) {
      const u32 = (name: string) => {
        const s = this.shard.section(name);
        if (s.length % 4 !== 0) throw new FormatError('E_FORMAT_HEADER', `first-pages section ${name} is not u32-aligned`, this.shard.path);
        return this.shard.u32Array(s.start, s.length / 4);
      };
      const views = { terms: u32('terms'), totals: u32('totals'), offsets: u32('offsets'), hits: u32('hits') };
      if (views.totals.length !== views.terms.length || views.offsets.length !== views.terms.length + 1) {
        throw new FormatError('E_FORMAT_HEADER', 'first-pages sections do not match their counts', this.shard.path);
      }
      this.views = views;
    }
    return this.views;
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
