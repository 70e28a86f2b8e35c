import type { Collector } from './all-words.js';
import { FUZZY_BELOW } from './search-constants.js';

/** What a search returns and is asked for, and the ranking it fills: shared by search-engine.ts and segmented-search.ts. */

export interface SearchHit {
  /** Popularity rank within its type (0 = most popular). */
  readonly rank: number;
  readonly tier: number;
}

export interface SearchResult {
  /** The best `need` results, best first: by tier, then popularity. */
  readonly hits: SearchHit[];
  /** The number of results, at most the window (and `countTo`): every page of the same term agrees on it. */
  readonly total: number;
}

export interface SearchOptions {
  /** How many of the best results to return (a page's offset + limit); default the window. */
  readonly need?: number;
  /** Results are counted up to this many (offset + limit may not pass it); default SEARCH_WINDOW. */
  readonly window?: number;
  /**
   * Stop counting at this many results (not fewer than `need` and FUZZY_BELOW), for a caller
   * that only asks whether more follow its page (offset + limit + 1): the hits do not change,
   * the total is exact up to this many. Default: the window.
   */
  readonly countTo?: number;
  /** Candidates the all-words tiers examine; default CANDIDATE_SCAN. */
  readonly scan?: number;
  /** Whether the typo-tolerant tiers may run; default true. */
  readonly fuzzy?: boolean;
  /**
   * Whether the tiers that scan postings (3 and 5) run; default true. Without them a search is
   * a few lookups: what the matcher tries first.
   */
  readonly scans?: boolean;
  /** Whether a common word the scans test may get its bitmap made (SearchIndex.bitmap); default true. */
  readonly makesBitmaps?: boolean;
}

/** The results counted so far and the hits kept for the page. */
export class Ranking implements Collector {
  readonly hits: SearchHit[] = [];
  total = 0;
  /** Results of the word-set and later tiers while few (what the typo tier must not repeat). */
  readonly early: number[] = [];

  constructor(
    readonly need: number,
    readonly window: number,
    /** Documents left out (SearchIndex.hidden), or null. */
    readonly hidden: Uint8Array | null = null,
  ) {}

  get full(): boolean {
    return this.total >= this.window;
  }

  /**
   * Results the page also waits for: FUZZY_BELOW while a scan is only ranking the page (its total
   * comes from elsewhere), so a scan stopped at the page has seen every result when the total
   * stays below FUZZY_BELOW (what the typo tiers must not repeat, `early`, is then complete).
   */
  pageCount = 0;

  get pageFull(): boolean {
    return this.hits.length >= this.need && this.total >= this.pageCount;
  }

  add(rank: number, tier: number): void {
    if (this.hidden !== null && (this.hidden[rank >>> 3] & (1 << (rank & 7))) !== 0) return;
    if (this.hits.length < this.need) this.hits.push({ rank, tier });
    if (this.total < FUZZY_BELOW) this.early.push(rank);
    this.total++;
  }

  /** Counts `count` results of a run whose first hits `at(0..)` are in order. */
  addRun(count: number, tier: number, at: (i: number) => number): void {
    const take = Math.min(count, this.window - this.total);
    const keep = Math.min(take, this.need - this.hits.length);
    for (let i = 0; i < keep; i++) this.hits.push({ rank: at(i), tier });
    this.total += take;
  }
}
