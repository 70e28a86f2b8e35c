/**
 * A search page the compile ranked and stored (first-pages.ts, phrase-pages.ts): hits as u32,
 * `tier << 29 | rank` (rank: the document's popularity rank), best first, with the search's total.
 */
const RANK_BITS = 29;
const RANK_MASK = (1 << RANK_BITS) - 1;

/** One stored page: hits best first (`rank(i)`, `tier(i)`), and the total. */
export interface FirstPage {
  readonly total: number;
  readonly count: number;
  rank(i: number): number;
  tier(i: number): number;
}

/** A hit as it is stored; throws when the rank or tier does not fit. */
export function encodeHit(rank: number, tier: number): number {
  if (rank > RANK_MASK || tier > 7) throw new Error(`first pages: hit (${rank}, ${tier}) does not fit`);
  return ((tier << RANK_BITS) | rank) >>> 0;
}

/** The page of `hits[from, to)` with its total. */
export function pageOf(hits: Uint32Array, from: number, to: number, total: number): FirstPage {
  return {
    total,
    count: to - from,
    rank: (i) => hits[from + i] & RANK_MASK,
    tier: (i) => hits[from + i] >>> RANK_BITS,
  };
}
