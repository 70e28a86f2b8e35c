import type { HiddenDocs } from '../index-format/search/hidden-docs.js';
import { NAME_PREFIX_SCAN, TIER } from './search-constants.js';
import { smallestLiveRanks, smallestRanks } from './smallest-ranks.js';

/** What tiers 0 and 1 add their names to: the engine's ranking of one query. */
export interface NameRangeCollector {
  readonly need: number;
  readonly hits: readonly unknown[];
  readonly full: boolean;
  add(rank: number, tier: number): void;
  /** Counts `count` results whose first hits are `at(0)`, `at(1)`... (called in that order, as many as the page keeps). */
  addRun(count: number, tier: number, at: (i: number) => number): void;
}

/**
 * Tiers 0 and 1: the names equal to the query (order[from, exactEnd)) and those it begins
 * (order[exactEnd, to)), the second ranked only when NAME_PREFIX_SCAN or fewer. Returns
 * whether it was.
 */
export function addNameRanges(out: NameRangeCollector, order: Uint32Array, from: number, exactEnd: number, to: number): boolean {
  out.addRun(exactEnd - from, TIER.exactName, (i) => order[from + i]);
  const prefixCount = to - exactEnd;
  const ranked = prefixCount <= NAME_PREFIX_SCAN;
  if (ranked && !out.full) {
    const smallest = smallestRanks(order, exactEnd, to, out.need - out.hits.length);
    out.addRun(prefixCount, TIER.namePrefix, (i) => smallest[i]);
  }
  return ranked;
}

/** addNameRanges under a deletes set: the hidden names are not counted, ranked or kept. */
export function addNameRangesLive(out: NameRangeCollector, order: Uint32Array, from: number, exactEnd: number, to: number, hidden: HiddenDocs): boolean {
  // The equal names in service, in order: counted at once, the page's first walked to.
  let k = from;
  const nextLive = () => {
    while (hidden.has(order[k])) k++;
    return order[k++];
  };
  out.addRun(exactEnd - from - hidden.inNameRange(from, exactEnd), TIER.exactName, nextLive);
  const livePrefixes = to - exactEnd - hidden.inNameRange(exactEnd, to);
  if (livePrefixes > NAME_PREFIX_SCAN) return false;
  if (!out.full) {
    const smallest = smallestLiveRanks(order, exactEnd, to, out.need - out.hits.length, hidden);
    out.addRun(livePrefixes, TIER.namePrefix, (i) => smallest[i]);
  }
  return true;
}
