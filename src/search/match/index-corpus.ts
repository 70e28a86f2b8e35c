import type { SearchIndex } from '../../index-format/search/search-index.js';
import type { SearchOptions } from '../ranking.js';
import { searchIndex } from '../search-engine.js';
import { CandidateFilter } from './candidate-filter.js';
import type { MatchCorpus } from './match-corpus.js';
import type { MatchTitle } from './match-text.js';
import { commonKeyedCandidates, creditedTitleCandidates, exactTitleCandidates, type TitleCandidates } from './title-candidates.js';

/** One search index: its ranks name its documents. */
export class IndexCorpus implements MatchCorpus {
  constructor(readonly index: SearchIndex) {}

  exactTitleCandidates(title: MatchTitle, credit: string | null, accept?: (ordinal: number, rank: number) => boolean): TitleCandidates {
    return exactTitleCandidates(this.index, title, credit, accept);
  }

  creditedTitleCandidates(title: MatchTitle, artists: readonly string[], skip: (ordinal: number) => boolean, below?: number): Map<number, number> {
    return creditedTitleCandidates(this.index, title, artists, skip, below);
  }

  commonKeyedCandidates(title: MatchTitle, artists: readonly string[], visit: (ordinal: number, rank: number) => boolean, credits = false): void {
    commonKeyedCandidates(this.index, title, artists, visit, credits);
  }

  get creditKeys(): boolean {
    return this.index.creditKeys;
  }

  search(term: string, options: SearchOptions): [number, number][] {
    return searchIndex(this.index, term, options).hits.map((h) => [this.index.ordinal(h.rank), h.rank]);
  }

  filter(title: MatchTitle, credit: readonly string[] | null): { canPass(ordinal: number, rank: number): boolean } {
    const filter = new CandidateFilter(this.index, title, credit);
    return { canPass: (_ordinal, rank) => filter.canPass(rank) };
  }

  name(_ordinal: number, rank: number): string {
    return this.index.name(rank);
  }

  nameEquals(_ordinal: number, rank: number, bytes: Uint8Array): boolean {
    return this.index.nameEquals(rank, bytes);
  }

  nameDiffersWithin(_ordinal: number, rank: number, bytes: Uint8Array, slack: number): boolean {
    return this.index.nameDiffersWithin(rank, bytes, slack);
  }

  namedExactly(name: string, count: number): number[] {
    const range = this.index.exactNameRange(name);
    const order = this.index.u32('names.order');
    const out: number[] = [];
    for (let k = range.from; k < range.to && out.length < count; k++) if (!this.index.hidden?.has(order[k])) out.push(this.index.ordinal(order[k]));
    return out;
  }
}
