/**
 * The documents of a search index that a snapshot's deletes set takes out of service, by rank:
 * one bit each for the hot loops, and the ranks ascending for counting those before a rank.
 * Searches leave them out as if they had never been indexed (search-engine.ts).
 */
/** A first page as the engine ranks it: the best hits, best first, and the total. */
export interface RankedPage {
  readonly hits: readonly { readonly rank: number; readonly tier: number }[];
  readonly total: number;
}

/** Stored first pages ranked again under the set that one index keeps at most (a few MiB). */
export const CORRECTED_PAGES = 65_536;

export class HiddenDocs {
  /** The compile's stored first pages ranked again without the hidden, by normalised query. */
  private readonly corrected = new Map<string, RankedPage>();

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

  /** A stored first page ranked again without the hidden (correctedPage), or undefined. */
  correctedPage(normal: string): RankedPage | undefined {
    return this.corrected.get(normal);
  }

  /** Keeps a stored first page ranked again; past CORRECTED_PAGES, the kept ones are dropped first. */
  keepCorrectedPage(normal: string, page: RankedPage): void {
    if (this.corrected.size >= CORRECTED_PAGES) this.corrected.clear();
    this.corrected.set(normal, page);
  }

  /** Hidden documents holding the term: its postings less these are the documents in service. */
  holding(term: number): number {
    return this.holders.get(term)?.length ?? 0;
  }

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

/** How many values of an ascending array are below `value`. */
function lowerBound(values: Uint32Array, value: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
