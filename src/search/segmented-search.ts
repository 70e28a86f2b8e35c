import { KEPT_PAGES, KeptPage } from '../index-format/search/hidden-docs.js';
import { searchText } from '../index-format/search/search-text.js';
import { type Collector, type QueryWord, scanAllWords } from './all-words.js';
import { RankMarks } from './rank-marks.js';
import { RankMerge } from './rank-merge.js';
import { Ranking, type SearchOptions, type SearchResult } from './ranking.js';
import { CANDIDATE_SCAN, FUZZY_BELOW, NAME_PREFIX_SCAN, SEARCH_WINDOW, TIER } from './search-constants.js';
import { mergedOneWord } from './segmented-merge.js';
import {
  byGlobal,
  type Found,
  type PartWords,
  type SearchPart,
  type SegmentOptions,
  livePostings,
  setIn,
  unionCorrectedWords,
  unionCorrectedWordSets,
  unionExactWords,
} from './segmented-words.js';
import { smallestLiveRanks, smallestRanks } from './smallest-ranks.js';

export type { SearchPart } from './segmented-words.js';

/**
 * searchIndex (search-engine.ts) over the segments of a segmented snapshot (docs/segments.md,
 * "Search over segments"): the same tiers, each run in every segment's index (the documents the
 * later segments replaced or took out hidden) and merged by the merged popularity order, with
 * what depends on the whole catalog decided over all segments at once: which words are terms and
 * which typos they forgive (segmented-words.ts), whether a name-prefix range is short enough to
 * rank, the rarest word a scan follows and how far (the CANDIDATE_SCAN most popular documents
 * holding it, over every segment), and the counts. Hits carry merged ranks. A one-word search
 * whose decisions the deltas cannot change is the base's own answer (its stored first pages)
 * merged with the deltas' (segmented-merge.ts); the answers of default searches are kept
 * (keptAnswer).
 */
export function searchSegments(parts: readonly SearchPart[], term: string, options: SearchOptions = {}): SearchResult {
  const window = options.window ?? SEARCH_WINDOW;
  const need = Math.min(options.need ?? window, window);
  const scan = Math.max(options.scan ?? CANDIDATE_SCAN, window);
  const normal = searchText(term);
  if (normal.length === 0 || parts.every((p) => p.index.documents === 0)) return { hits: [], total: 0 };
  const count = Math.min(window, Math.max(options.countTo ?? window, need, FUZZY_BELOW));
  const answer = (want: number, upTo: number) => {
    const ranked = (some: readonly SearchPart[], asked: SegmentOptions) => {
      const marks = some.map((p) => RankMarks.of(p.index));
      try {
        return rankSegments(some, normal, new Ranking(want, upTo), scan, asked, marks);
      } finally {
        for (const m of marks) m.clear();
      }
    };
    const asked = { ...options, need: want, countTo: upTo };
    return mergedOneWord(parts, normal, asked, want, upTo, ranked) ?? ranked(parts, asked);
  };
  const asDefault = window === SEARCH_WINDOW && scan === CANDIDATE_SCAN && options.fuzzy !== false && options.scans !== false;
  return asDefault && need <= KEPT_HITS ? keptAnswer(parts, normal, need, count, () => answer(KEPT_HITS, window)) : answer(need, count);
}

/** Hits a kept answer holds: the largest page a group of a search asks by default. */
const KEPT_HITS = 25;

/**
 * What the compile's stored first pages are to one index, kept answers are to the segments: a
 * query asked with the default window, scan and tiers is ranked once, to KEPT_HITS hits and the
 * window's total, and kept for the snapshot's life (its parts), as HiddenDocs keeps the pages it
 * corrects; a later ask of KEPT_HITS or fewer is a lookup. Pages of one query agree, so the first
 * `need` of the kept hits are the answer for `need`, and the total is the kept one to the count.
 * At most KEPT_PAGES queries per type (then the kept are dropped first).
 */
function keptAnswer(parts: readonly SearchPart[], normal: string, need: number, count: number, rank: () => SearchResult): SearchResult {
  let kept = keptByParts.get(parts);
  if (!kept) keptByParts.set(parts, (kept = new Map()));
  let page = kept.get(normal);
  if (!page) {
    const ranked = rank();
    if (kept.size >= KEPT_PAGES) kept.clear();
    kept.set(normal, (page = KeptPage.of(ranked.hits, ranked.total, KEPT_HITS)));
  }
  return { hits: page.firstHits(need) ?? [], total: Math.min(page.total, count) };
}
const keptByParts = new WeakMap<readonly SearchPart[], Map<string, KeptPage>>();

function rankSegments(parts: readonly SearchPart[], normal: string, out: Ranking, scan: number, options: SegmentOptions, marks: RankMarks[]): Ranking {
  const words = [...new Set(normal.split(' '))];
  if (nameTiers(parts, normal, out, marks, options.rankPrefixes)) return out;

  // Tier 2: the word-set keys (each part's first `scan` in service, merged, the first `scan` of those).
  const sets = parts.map((p) => setIn(p, words));
  if (sets.some((s) => s !== null)) addFound(out, wordSetFound(parts, [sets], scan), TIER.wordSet, marks);
  if (out.full) return out;

  const makes = options.makesBitmaps !== false;
  const tier3: Found[] = [];
  const exact = options.scans !== false ? unionExactWords(parts, words) : null;
  if (exact) {
    // One word held by a window of documents fills the window: only the page is ranked (as searchIndex does).
    const saturated = words.length === 1 && scan >= out.window && holdsWindow(parts, exact, out.window);
    const limit = saturated ? out.need - out.hits.length : out.window - out.total;
    for (const f of scanFound(parts, exact, TIER.allWords, scan, marks, makes, limit)) {
      if (out.full || (saturated && out.hits.length >= out.need)) break;
      out.add(f.global, TIER.allWords);
      tier3.push(f);
    }
    if (saturated) out.total = out.window;
  }

  // Tiers 4 and 5: one typo per word.
  if (out.total < FUZZY_BELOW && options.fuzzy !== false) {
    for (const f of tier3) marks[f.part].add(f.rank);
    const corrected = unionCorrectedWordSets(parts, words).map((set) => parts.map((p) => setIn(p, set)));
    addFound(out, wordSetFound(parts, corrected, scan), TIER.fuzzyWordSet, marks);
    const fuzzy = options.scans !== false && !out.full ? unionCorrectedWords(parts, words) : null;
    if (fuzzy) for (const f of scanFound(parts, fuzzy, TIER.fuzzy, scan, marks, makes, out.window - out.total)) if (!out.full) out.add(f.global, TIER.fuzzy);
  }
  return out;
}

/** Whether one term of the one word has `window` documents in service in one part (enough to fill the window). */
function holdsWindow(parts: readonly SearchPart[], words: PartWords, window: number): boolean {
  return words.some((partWords, p) =>
    partWords[0].ranges.some((r) => {
      for (let t = r.from; t < r.to; t++) if (livePostings(parts[p], t, t + 1) >= window) return true;
      return false;
    }),
  );
}

/** Adds found documents in merged order, each once (marks: what earlier tiers counted). */
function addFound(out: Ranking, found: Found[], tier: number, marks: RankMarks[]): void {
  for (const f of found) {
    if (out.full) return;
    if (marks[f.part].add(f.rank)) out.add(f.global, tier);
  }
}

/**
 * Tiers 0 and 1: the names equal to the query, then those it begins when NAME_PREFIX_SCAN or
 * fewer in service over every part; marks them. Returns whether the ranking is full.
 */
function nameTiers(parts: readonly SearchPart[], normal: string, out: Ranking, marks: RankMarks[], rankPrefixes?: boolean): boolean {
  const ranges = parts.map((p) => {
    const range = p.index.namePrefixRange(normal);
    return { from: range.from, exactEnd: p.index.nameEqualEnd(range, normal), to: range.to };
  });
  const live = (p: number, from: number, to: number) => to - from - (parts[p].index.hidden?.inNameRange(from, to) ?? 0);
  const equal: Found[] = [];
  let equalCount = 0;
  let prefixCount = 0;
  ranges.forEach((r, p) => {
    equalCount += live(p, r.from, r.exactEnd);
    prefixCount += live(p, r.exactEnd, r.to);
  });
  const want = out.need - out.hits.length;
  ranges.forEach((r, p) => equal.push(...firstLive(parts, p, r.from, r.exactEnd, want)));
  equal.sort(byGlobal);
  out.addRun(equalCount, TIER.exactName, (i) => equal[i].global);
  const ranked = rankPrefixes ?? prefixCount <= NAME_PREFIX_SCAN;
  if (ranked && !out.full) {
    const left = out.need - out.hits.length;
    const prefixed: Found[] = [];
    ranges.forEach((r, p) => prefixed.push(...firstLive(parts, p, r.exactEnd, r.to, left)));
    prefixed.sort(byGlobal);
    out.addRun(prefixCount, TIER.namePrefix, (i) => prefixed[i].global);
  }
  if (out.full) return true;
  ranges.forEach((r, p) => {
    const order = parts[p].index.u32('names.order');
    for (let k = r.from; k < (ranked ? r.to : r.exactEnd); k++) marks[p].add(order[k]);
  });
  return false;
}

/** The `count` most popular documents in service of names.order[from, to) of part p. */
function firstLive(parts: readonly SearchPart[], p: number, from: number, to: number, count: number): Found[] {
  const { index } = parts[p];
  const order = index.u32('names.order');
  const ranks = index.hidden ? smallestLiveRanks(order, from, to, count, index.hidden) : smallestRanks(order, from, to, count);
  return Array.from(ranks, (rank) => ({ global: parts[p].global(rank), part: p, rank }));
}

/**
 * Documents keyed under word sets (one list of per-part term ids per set): per set, the first
 * `scan` in service over all parts; all sets' together in merged order.
 */
function wordSetFound(parts: readonly SearchPart[], sets: (Uint32Array | null)[][], scan: number): Found[] {
  const all: Found[] = [];
  for (const perPart of sets) {
    const found: Found[] = [];
    perPart.forEach((ids, p) => {
      if (!ids) return;
      const { index } = parts[p];
      const hidden = index.hidden;
      for (const rank of index.wordSetRanks(ids, scan + (hidden?.count ?? 0)))
        if (!hidden?.has(rank)) found.push({ global: parts[p].global(rank), part: p, rank });
    });
    all.push(...found.sort(byGlobal).slice(0, scan));
  }
  return all.sort(byGlobal);
}

/**
 * Tiers 3 and 5: the documents holding every word, among the `scan` most popular in service that
 * hold the rarest word over every part; each part scans its share of them (scanAllWords), the
 * documents earlier tiers marked skipped. In merged order.
 */
function scanFound(parts: readonly SearchPart[], words: PartWords, tier: number, scan: number, marks: RankMarks[], makes: boolean, limit: number): Found[] {
  const size = words[0].length;
  const totals = new Array(size).fill(0);
  words.forEach((partWords, p) => {
    partWords.forEach((w, i) => {
      totals[i] += w.ranges.reduce((n, r) => n + livePostings(parts[p], r.from, r.to), 0);
    });
  });
  // The rarest word (the first of the rarest, as a stable sort would put it).
  let driver = 0;
  for (let i = 1; i < size; i++) if (totals[i] < totals[driver]) driver = i;
  // Each part scans its share of the first `scan` candidates; all of them when there are no more.
  const shares = totals[driver] <= scan ? parts.map(() => scan) : scanShares(parts, words, driver, scan);
  const found: Found[] = [];
  words.forEach((partWords, p) => {
    if (shares[p] === 0 || partWords.some((w) => w.ranges.length === 0)) return;
    // A part's first `limit` hits are all the merged first `limit` can hold of it.
    let kept = 0;
    const collect: Collector = {
      get full() {
        return kept >= limit;
      },
      pageFull: false,
      add: (rank) => {
        found.push({ global: parts[p].global(rank), part: p, rank });
        kept++;
      },
    };
    scanAllWords(parts[p].index, partWords, tier, shares[p], (r) => marks[p].has(r), collect, false, makes, driver);
  });
  return found.sort(byGlobal);
}

/** How many of its driver's documents in service each part scans: its share of the `scan` most popular over all parts. */
function scanShares(parts: readonly SearchPart[], words: PartWords, driver: number, scan: number): number[] {
  // A part that cannot match every word still holds candidates: they count against the scan.
  const cursors = words.map((w, p) => (w[driver].ranges.length > 0 ? liveCursor(parts[p], w[driver]) : null));
  const shares = parts.map(() => 0);
  const heads = cursors.map((c) => (c ? c() : -1));
  for (let taken = 0; taken < scan; taken++) {
    let best = -1;
    for (let p = 0; p < heads.length; p++) if (heads[p] >= 0 && (best < 0 || heads[p] < heads[best])) best = p;
    if (best < 0) break;
    shares[best]++;
    heads[best] = cursors[best]!();
  }
  return shares;
}

/** The merged ranks of a word's documents in service in one part, ascending, one per call; -1 at the end. */
function liveCursor(part: SearchPart, word: QueryWord): () => number {
  const { index } = part;
  const merge = new RankMerge(index.u32('postings.offsets'), index.u32('postings'), word.ranges);
  return () => {
    for (;;) {
      const r = merge.next();
      if (r < 0) return -1;
      if (!index.hidden?.has(r)) return part.global(r);
    }
  };
}
