import { lowerBound } from '../u32.js';
/**
 * A stored first page as it reads under the set, kept compact: the best hits in service, best
 * first (ranks and tiers), the total, and how many hits it answers for (`answers`: a page
 * corrected in place that lost hidden hits and did not hold every result answers only for as
 * many as it kept).
 */
export class KeptPage {
  constructor(
    readonly ranks: Uint32Array,
    readonly tiers: Uint8Array,
    readonly total: number,
    readonly answers: number,
  ) {}

  static of(hits: readonly { readonly rank: number; readonly tier: number }[], total: number, answers: number): KeptPage {
    return new KeptPage(
      Uint32Array.from(hits, (h) => h.rank),
      Uint8Array.from(hits, (h) => h.tier),
      total,
      answers,
    );
  }

  /** Its first `need` hits, or null when it does not answer for that many. */
  firstHits(need: number): { rank: number; tier: number }[] | null {
    if (need > this.answers) return null;
    const hits: { rank: number; tier: number }[] = [];
    for (let i = 0; i < Math.min(need, this.ranks.length); i++) hits.push({ rank: this.ranks[i], tier: this.tiers[i] });
    return hits;
  }
}

/** Stored first pages read under the set that one index keeps at most (a few MiB). */
export const KEPT_PAGES = 65_536;

/**
 * The documents of a search index that a snapshot's deletes set takes out of service, by rank:
 * one bit each for the hot loops, and the ranks ascending for counting those before a rank.
 * Searches leave them out as if they had never been indexed (search-engine.ts).
 */
export class HiddenDocs {
  /** The compile's stored first pages as they read without the hidden, by normalised query. */
  private readonly kept = new Map<string, KeptPage>();

  constructor(
    /** One bit per rank of the index. */
    readonly bits: Uint8Array,
    /** The hidden ranks, ascending. */
    readonly ranks: Uint32Array,
    /** Per term id, the hidden documents (ranks) holding it in their name or artists; absent: none. */
    private readonly holders: ReadonlyMap<number, readonly number[]>,
    /** The positions of the hidden documents in the name order (`names.order`), ascending. */
    private readonly namePositions: Uint32Array,
  ) {}

  /** Hidden documents among names.order[from, to): a name range less these is what is in service. */
  inNameRange(from: number, to: number): number {
    return lowerBound(this.namePositions, to) - lowerBound(this.namePositions, from);
  }

  /** A stored first page as it reads without the hidden (keepPage), or undefined. */
  keptPage(normal: string): KeptPage | undefined {
    return this.kept.get(normal);
  }

  /** Keeps a stored first page as it reads without the hidden; past KEPT_PAGES, the kept ones are dropped first. */
  keepPage(normal: string, page: KeptPage): void {
    if (this.kept.size >= KEPT_PAGES) this.kept.clear();
    this.kept.set(normal, page);
  }

  /** Hidden documents holding the term: its postings less these are the documents in service. */
  holding(term: number): number {
    return this.holders.get(term)?.length ?? 0;
  }

  /** Hidden postings of the terms [from, to): how many of the range's postings are hidden documents'. */
  holdingIn(from: number, to: number): number {
    if (!this.byTerm) {
      const terms = Uint32Array.from(this.holders.keys()).sort();
      const ends = new Float64Array(terms.length);
      terms.forEach((t, i) => {
        ends[i] = (i > 0 ? ends[i - 1] : 0) + this.holding(t);
      });
      this.byTerm = { terms, ends };
    }
    const { terms, ends } = this.byTerm;
    const a = lowerBound(terms, from);
    const b = lowerBound(terms, to);
    return (b > 0 ? ends[b - 1] : 0) - (a > 0 ? ends[a - 1] : 0);
  }

  /** The terms holding hidden documents, ascending, with their running counts (holdingIn). */
  private byTerm: { terms: Uint32Array; ends: Float64Array } | null = null;

  /** The hidden documents (ranks) holding a term. */
  holdersOf(term: number): readonly number[] {
    return this.holders.get(term) ?? [];
  }

  get count(): number {
    return this.ranks.length;
  }

  has(rank: number): boolean {
    return (this.bits[rank >>> 3] & (1 << (rank & 7))) !== 0;
  }

  /** A rank among the documents in service: the rank less the hidden before it. */
  liveRank(rank: number): number {
    return rank - lowerBound(this.ranks, rank);
  }
}
