import type { SearchHit, SearchOptions, SearchResult } from './ranking.js';
import { searchIndex } from './search-engine.js';
import { CANDIDATE_SCAN, FUZZY_BELOW, NAME_PREFIX_SCAN, SEARCH_WINDOW } from './search-constants.js';
import { isUnionTerm, livePostings, type SearchPart, type SegmentOptions } from './segmented-words.js';

/**
 * A one-word search over segments answered as the base's own search (its stored first pages,
 * the documents the deltas replaced left out: what a takedown does) merged with the deltas'.
 * That is the whole catalog's answer when nothing the search decides over the whole catalog
 * differs between the base alone, the deltas alone and all of them (segmented-search.ts):
 * - the word is a term, or not, alike in the base and over all segments, and the base holds it
 *   as a prefix (so no typo is looked for anywhere: the typo tiers run only for a word no
 *   segment holds, or when fewer than FUZZY_BELOW are found, which falls back);
 * - the name-prefix range is ranked, or not, alike in the base and over all (the deltas are told);
 * - the word-set key holds no more than the scan over all segments;
 * - one word is every candidate of its scan, so the scan's bound never changes a result.
 * Then the hits are the two answers merged by tier and merged popularity rank, and the total
 * their sum, to the count. Null when a condition fails: the caller ranks over the segments.
 * `parts[0]` is the base.
 */
export function mergedOneWord(
  parts: readonly SearchPart[],
  normal: string,
  options: SearchOptions,
  need: number,
  count: number,
  deltas: (parts: readonly SearchPart[], options: SegmentOptions) => SearchResult,
): SearchResult | null {
  if (parts.length < 2 || normal.includes(' ')) return null;
  if ((options.window ?? SEARCH_WINDOW) !== SEARCH_WINDOW || (options.scan ?? CANDIDATE_SCAN) !== CANDIDATE_SCAN) return null;
  if (options.fuzzy === false || options.scans === false) return null;
  const [base, ...rest] = parts;
  const id = base.index.termId(normal);
  const baseTerm = id >= 0 && livePostings(base, id, id + 1) > 0;
  const prefix = base.index.prefixRange(normal);
  if (baseTerm !== isUnionTerm(parts, normal) || livePostings(base, prefix.from, prefix.to) === 0) return null;
  const rankPrefixes = namePrefixDecision(parts, normal);
  if (rankPrefixes === null || !keyWithinScan(parts, normal)) return null;
  const fromBase = searchIndex(base.index, normal, options);
  // A word that is only a prefix in the base gets typo tiers there when the base finds few.
  if (!baseTerm && fromBase.total < FUZZY_BELOW) return null;
  // When the base alone fills the count, the deltas' own count cannot change the total: their page is enough.
  const fromDeltas = deltas(rest, { ...options, fuzzy: false, rankPrefixes, ...(fromBase.total >= count ? { countTo: need } : {}) });
  if (fromBase.total + fromDeltas.total < FUZZY_BELOW) return null;
  const total = Math.min(count, fromBase.total + fromDeltas.total);
  const hits: SearchHit[] = [...fromBase.hits.map((h) => ({ rank: base.global(h.rank), tier: h.tier })), ...fromDeltas.hits];
  hits.sort((a, b) => a.tier - b.tier || a.rank - b.rank);
  return { hits: hits.slice(0, need), total };
}

/**
 * Whether the name-prefix range is ranked over all segments (NAME_PREFIX_SCAN or fewer in
 * service), for the deltas to be told; null when the base alone decides otherwise.
 */
function namePrefixDecision(parts: readonly SearchPart[], normal: string): boolean | null {
  const counts = parts.map(({ index }) => {
    const range = index.namePrefixRange(normal);
    const exactEnd = index.nameEqualEnd(range, normal);
    return range.to - exactEnd - (index.hidden?.inNameRange(exactEnd, range.to) ?? 0);
  });
  const base = counts[0];
  const all = counts.reduce((a, b) => a + b, 0);
  return base <= NAME_PREFIX_SCAN === all <= NAME_PREFIX_SCAN ? all <= NAME_PREFIX_SCAN : null;
}

/** Whether the one-word key holds no more documents than the scan reads, over all segments. */
function keyWithinScan(parts: readonly SearchPart[], normal: string): boolean {
  let held = 0;
  for (const { index } of parts) {
    const id = index.termId(normal);
    if (id >= 0) held += index.wordSetRanks([id], CANDIDATE_SCAN + 1).length;
  }
  return held <= CANDIDATE_SCAN;
}
