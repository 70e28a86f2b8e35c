import type { SearchOptions } from '../ranking.js';
import type { MatchTitle } from './match-text.js';
import type { TitleCandidates } from './title-candidates.js';

/**
 * What the matcher (matcher.ts) asks of the documents of one type: one search index, or the
 * segments of a segmented snapshot (segmented-corpus.ts), with the same answers. A document is
 * named by its ordinal and its popularity rank (over the whole catalog) together: the index
 * finds it by the rank, the segments by the ordinal.
 */
export interface MatchCorpus {
  /**
   * The documents titled exactly as the query, most popular first (title-candidates.ts); `accept`,
   * where the corpus asks it, of each as found, the first accepted ending the look (`accepted`).
   */
  exactTitleCandidates(title: MatchTitle, credit: string | null, accept?: (ordinal: number, rank: number) => boolean): TitleCandidates;
  /** Those keyed by the title's words and one credited artist's, more popular than the rank `below` (title-candidates.ts). */
  creditedTitleCandidates(title: MatchTitle, artists: readonly string[], skip: (ordinal: number) => boolean, below?: number): Map<number, number>;
  /**
   * Those keyed by the title's words and every credited artist's, to `visit` most popular first
   * while it returns true (title-candidates.ts); with `credits`, by the credit keys.
   */
  commonKeyedCandidates(title: MatchTitle, artists: readonly string[], visit: (ordinal: number, rank: number) => boolean, credits?: boolean): void;
  /** Whether the documents have credit keys (search-keys.ts, creditKey). */
  readonly creditKeys: boolean;
  /** A search's hits, best first, as [ordinal, rank]. */
  search(term: string, options: SearchOptions): [number, number][];
  /** Cheap tests that a candidate cannot pass the thresholds (candidate-filter.ts). */
  filter(title: MatchTitle, credit: readonly string[] | null): { canPass(ordinal: number, rank: number): boolean };
  /** The document's normalised name. */
  name(ordinal: number, rank: number): string;
  nameEquals(ordinal: number, rank: number, bytes: Uint8Array): boolean;
  nameDiffersWithin(ordinal: number, rank: number, bytes: Uint8Array, slack: number): boolean;
  /** The ordinals of the first `count` documents in service named exactly `name`, most popular first. */
  namedExactly(name: string, count: number): number[];
}
