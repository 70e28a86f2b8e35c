import type { SearchIndex } from '../index-format/search/search-index.js';

/**
 * The ranks one query has marked so far (the results of its earlier tiers): a bitmap over the
 * index's documents, so marking and testing are a bit operation each, plus the list of what is
 * marked, so walking and clearing cost what was marked. One per search index, reused by every
 * query (a query runs start to end without yielding) and cleared when the query ends.
 */
export class RankMarks {
  private readonly bits: Uint32Array;
  private list = new Int32Array(1024);
  size = 0;

  private constructor(documents: number) {
    this.bits = new Uint32Array((documents + 31) >>> 5);
  }

  private static readonly byIndex = new WeakMap<SearchIndex, RankMarks>();

  /** The marks of `index`'s queries, empty. */
  static of(index: SearchIndex): RankMarks {
    let marks = RankMarks.byIndex.get(index);
    if (!marks) RankMarks.byIndex.set(index, (marks = new RankMarks(index.documents)));
    if (marks.size !== 0) throw new Error('RankMarks: the marks of this index are in use');
    return marks;
  }

  has(rank: number): boolean {
    return (this.bits[rank >>> 5] & (1 << (rank & 31))) !== 0;
  }

  /** Marks `rank`; false when it was already marked. */
  add(rank: number): boolean {
    const word = rank >>> 5;
    const bit = 1 << (rank & 31);
    if ((this.bits[word] & bit) !== 0) return false;
    this.bits[word] |= bit;
    if (this.size === this.list.length) {
      const list = new Int32Array(this.list.length * 2);
      list.set(this.list);
      this.list = list;
    }
    this.list[this.size++] = rank;
    return true;
  }

  /** Calls `fn` with each marked rank, in the order they were marked. */
  forEach(fn: (rank: number) => void): void {
    const list = this.list;
    for (let i = 0; i < this.size; i++) fn(list[i]);
  }

  /** Unmarks everything (what a query must do when it ends, however it ends). */
  clear(): void {
    const list = this.list;
    for (let i = 0; i < this.size; i++) this.bits[list[i] >>> 5] = 0;
    this.size = 0;
  }
}
