import type { Catalog } from '../../catalog/catalog.js';
import type { OrdinalColumn } from '../../catalog/live-lists.js';
import type { SegmentSearch } from '../../catalog/segment-parts.js';
import { searchText } from '../../index-format/search/search-text.js';
import type { SearchOptions } from '../ranking.js';
import { searchSegments } from '../segmented-search.js';
import { type Found, isUnionTerm, setIn } from '../segmented-words.js';
import { CandidateFilter } from './candidate-filter.js';
import type { MatchCorpus } from './match-corpus.js';
import type { MatchTitle } from './match-text.js';
import { anchorOf, CANDIDATES_PER_SEARCH, COMMON_SCAN, COMMON_TAKEN, KEYED_SCAN, type TitleCandidates } from './title-candidates.js';
import { segmentedTitleCandidates } from './segmented-titles.js';
import { AscendingRun, WordSetRun } from '../../index-format/search/word-set-run.js';
import { creditKey } from '../../index-format/search/search-keys.js';

/**
 * The matcher's corpus over the segments of a segmented snapshot (docs/segments.md): each
 * question asked of every segment's index, the replaced documents hidden, and the answers
 * merged by the merged popularity order, with the bounds (the first EXACT_TITLE_SCAN documents of
 * a title, the first KEYED_SCAN of a key) counted over all segments and only documents in
 * service, as one index of the whole catalog would count them (the documents titled exactly so:
 * segmented-titles.ts). A document is found in its segment by its ordinal (Catalog.segments).
 */
export class SegmentedCorpus implements MatchCorpus {
  private constructor(
    private readonly cat: Catalog,
    private readonly parts: readonly SegmentSearch[],
    private readonly popularity: OrdinalColumn,
    private readonly type: 'song' | 'album' | 'artist',
  ) {}

  static of(cat: Catalog, type: 'song' | 'album' | 'artist', parts: readonly SegmentSearch[]): SegmentedCorpus {
    return new SegmentedCorpus(cat, parts, cat.order(type, 'popularity'), type);
  }

  /** The part holding a document, and its rank there. */
  private locate(ordinal: number): { part: SegmentSearch; rank: number } {
    const segment = this.cat.segments!.segmentOf(this.type, ordinal);
    const part = this.parts.find((p) => p.segment === segment)!;
    return { part, rank: part.rank(ordinal) };
  }

  private found(p: number, rank: number): Found {
    return { global: this.parts[p].global(rank), part: p, rank };
  }

  /**
   * Walks the documents in service named exactly `name` in merged popularity order (each part's
   * run of the name order is already in its popularity order: a merge, read only as far as
   * `visit` goes, `limit` at most); returns how many are in service over all parts.
   */
  private walkNamed(name: string, limit: number, visit: (f: Found) => boolean): number {
    let live = 0;
    const cursors = this.parts.map(({ index }, p) => {
      const range = index.exactNameRange(name);
      live += range.to - range.from - (index.hidden?.inNameRange(range.from, range.to) ?? 0);
      return { p, k: range.from, to: range.to, order: index.u32('names.order'), hidden: index.hidden, head: null as Found | null };
    });
    const advance = (c: (typeof cursors)[number]) => {
      c.head = null;
      while (c.k < c.to) {
        const rank = c.order[c.k++];
        if (c.hidden?.has(rank)) continue;
        c.head = this.found(c.p, rank);
        return;
      }
    };
    for (const c of cursors) advance(c);
    for (let n = 0; n < limit; n++) {
      let best: (typeof cursors)[number] | null = null;
      for (const c of cursors) if (c.head && (!best || c.head.global < best.head!.global)) best = c;
      if (!best || !visit(best.head!)) break;
      advance(best);
    }
    return live;
  }

  /** Per part, the term ids of a normalised text's words; null overall when a word is no term in service anywhere (or there are none). */
  private termIds(text: string): (Uint32Array | null)[] | null {
    const words = text.split(' ').filter((w) => w.length > 0);
    if (words.length === 0 || !words.every((w) => isUnionTerm(this.parts, w))) return null;
    return this.parts.map((part) => {
      const ids = words.map((w) => part.index.termId(w));
      return ids.every((id) => id >= 0) ? Uint32Array.from(ids) : null;
    });
  }

  exactTitleCandidates(title: MatchTitle, credit: string | null): TitleCandidates {
    return segmentedTitleCandidates(this.parts, title.full, credit !== null ? this.termIds(searchText(credit)) : null);
  }

  creditedTitleCandidates(
    title: MatchTitle,
    artists: readonly string[],
    skip: (ordinal: number) => boolean,
    below = Number.POSITIVE_INFINITY,
  ): Map<number, number> {
    const out = new Map<number, number>();
    const { sets, complete } = this.artistKeySets(title, artists);
    if (sets.length === 0 || (complete && sets.length === 1)) return out;
    for (const set of sets) {
      // The key's first KEYED_SCAN in service over all parts, more popular than `below`, in merged order
      // (the title's runs asked in ascending order: new ones for each key).
      const named = this.titleRuns(title);
      const readers = this.parts.map((part) => {
        const ids = setIn(part, set);
        return ids ? new WordSetRun(part.index, ids).reader(part.index.hidden) : null;
      });
      let scanned = 0;
      let taken = 0;
      this.visitMerged(readers, (f) => {
        if (f.global >= below || ++scanned > KEYED_SCAN) return false;
        if (!named[f.part].holds(f.rank)) return true;
        const ordinal = this.parts[f.part].ordinal(f.rank);
        if (!skip(ordinal)) out.set(ordinal, f.global);
        return ++taken < CANDIDATES_PER_SEARCH;
      });
    }
    return out;
  }

  get creditKeys(): boolean {
    return this.parts.every((part) => part.index.creditKeys);
  }

  commonKeyedCandidates(title: MatchTitle, artists: readonly string[], visit: (ordinal: number, rank: number) => boolean, credits = false): void {
    const { sets, complete } = this.artistKeySets(title, artists, credits);
    if (sets.length === 0 || !complete) return;
    // Per part, each key's run (null where the part holds no document with one of its words).
    const runs = this.parts.map((part) =>
      sets.map((set) => {
        const ids = credits ? creditKeyIn(part, set) : setIn(part, set);
        return ids ? new WordSetRun(part.index, ids) : null;
      }),
    );
    const counts = sets.map((_, k) =>
      Math.min(
        COMMON_SCAN,
        runs.reduce((n, partRuns, p) => n + (partRuns[k]?.countInService(COMMON_SCAN, this.parts[p].index.hidden) ?? 0), 0),
      ),
    );
    const anchor = anchorOf(counts);
    const named = this.titleRuns(title);
    let scanned = 0;
    let taken = 0;
    // The anchor key's first COMMON_SCAN in service over all parts, in merged order.
    this.visitMerged(
      runs.map((partRuns, p) => partRuns[anchor]?.reader(this.parts[p].index.hidden) ?? null),
      (f) => {
        if (++scanned > COMMON_SCAN) return false;
        const partRuns = runs[f.part];
        if (!named[f.part].holds(f.rank) || !partRuns.every((run, k) => k === anchor || run?.holds(f.rank))) return true;
        return visit(this.parts[f.part].ordinal(f.rank), f.global) && ++taken < COMMON_TAKEN;
      },
    );
  }

  /**
   * The documents each part's reader gives (its ranks ascending, which are in merged order), merged
   * by merged rank, to `visit` while it returns true: read only as far as the visit goes.
   */
  private visitMerged(readers: readonly ((() => number) | null)[], visit: (f: Found) => boolean): void {
    const next = (p: number): Found | null => {
      const rank = readers[p]?.() ?? -1;
      return rank < 0 ? null : this.found(p, rank);
    };
    const heads = readers.map((_, p) => next(p));
    for (;;) {
      let best = -1;
      for (let p = 0; p < heads.length; p++) if (heads[p] && (best < 0 || heads[p]!.global < heads[best]!.global)) best = p;
      if (best < 0) return;
      const f = heads[best]!;
      heads[best] = next(best);
      if (!visit(f)) return;
    }
  }

  /** Per part, its documents named exactly as the title (a range of its name order, ascending by rank). */
  private titleRuns(title: MatchTitle): AscendingRun[] {
    return this.parts.map(({ index }) => {
      const range = index.exactNameRange(title.full);
      return new AscendingRun(index.u32('names.order'), range.from, range.to);
    });
  }

  /**
   * The distinct word sets of the title joined with each credited artist, as words (title-candidates.ts
   * artistKeySets): only words some document in service holds somewhere. With `credits`, the
   * credit keys' words instead: the title's, CREDIT_WORD, the artist's (creditKeyIn).
   */
  private artistKeySets(title: MatchTitle, artists: readonly string[], credits = false): { sets: string[][]; complete: boolean } {
    const titleWords = title.full.split(' ').filter((w) => w.length > 0);
    if (titleWords.length === 0 || !titleWords.every((w) => isUnionTerm(this.parts, w))) return { sets: [], complete: false };
    const sets: string[][] = [];
    const looked = new Set<string>();
    let complete = true;
    for (const artist of artists) {
      const artistWords = artist.split(' ').filter((w) => w.length > 0);
      if (artistWords.length === 0 || !artistWords.every((w) => isUnionTerm(this.parts, w))) {
        complete = false;
        continue;
      }
      const set = credits ? [...titleWords, CREDIT_WORD, ...artistWords] : [...new Set([...titleWords, ...artistWords])];
      const key = credits ? set.join(' ') : [...set].sort().join(' ');
      if (looked.has(key)) continue;
      looked.add(key);
      sets.push(set);
    }
    return { sets, complete };
  }

  search(term: string, options: SearchOptions): [number, number][] {
    return searchSegments(this.parts, term, options).hits.map((h) => [this.popularity.get(h.rank), h.rank]);
  }

  filter(title: MatchTitle, credit: readonly string[] | null): { canPass(ordinal: number, rank: number): boolean } {
    const filters = new Map<SegmentSearch, CandidateFilter>();
    return {
      canPass: (ordinal) => {
        const { part, rank } = this.locate(ordinal);
        let filter = filters.get(part);
        if (!filter) filters.set(part, (filter = new CandidateFilter(part.index, title, credit)));
        return filter.canPass(rank);
      },
    };
  }

  name(ordinal: number): string {
    const { part, rank } = this.locate(ordinal);
    return part.index.name(rank);
  }

  nameEquals(ordinal: number, _rank: number, bytes: Uint8Array): boolean {
    const { part, rank } = this.locate(ordinal);
    return part.index.nameEquals(rank, bytes);
  }

  nameDiffersWithin(ordinal: number, _rank: number, bytes: Uint8Array, slack: number): boolean {
    const { part, rank } = this.locate(ordinal);
    return part.index.nameDiffersWithin(rank, bytes, slack);
  }

  namedExactly(name: string, count: number): number[] {
    const out: number[] = [];
    this.walkNamed(name, count, (f) => out.push(this.parts[f.part].ordinal(f.rank)) > 0);
    return out;
  }
}

/** Between a credit key's title words and artist words (artistKeySets): no term is empty. */
const CREDIT_WORD = '';

/** A credit key's words as the part's credit key (search-keys.ts), or null when a word is no term there. */
function creditKeyIn(part: SegmentSearch, words: readonly string[]): Uint32Array | null {
  const at = words.indexOf(CREDIT_WORD);
  const title = idsIn(part, words.slice(0, at));
  const artist = idsIn(part, words.slice(at + 1));
  return title && artist ? creditKey(title, artist) : null;
}

/** The part's term ids of the words, in their order, or null when one is no term there. */
function idsIn(part: SegmentSearch, words: readonly string[]): number[] | null {
  const ids = words.map((w) => part.index.termId(w));
  return ids.every((id) => id >= 0) ? ids : null;
}
