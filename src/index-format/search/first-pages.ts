import { FormatError } from '../errors.js';
import { NAME_GROUP_MIN, NAME_GROUP_SCAN, NameGroups } from './name-groups.js';
import { NAME_RUN_MIN, NameRuns } from './name-runs.js';
import { PHRASE_SECTIONS, PhrasePages, PREFIX_SECTIONS, WORD_PREFIX_SECTIONS } from './phrase-pages.js';
import { hashRun } from './search-keys.js';
import type { Shard } from '../shards/shard-reader.js';
import { pageOf, type FirstPage } from './stored-page.js';

/**
 * First pages of one-word searches, decided by the compile: for the terms of a search index whose
 * search is costly, the best `limit` hits and the total, exactly as the search engine ranks them
 * live. Sections (u32, little-endian), in the order they are written:
 * - `hits`: per hit, `tier << 29 | rank` (rank: the document's popularity rank);
 * - `terms`: the term ids that have a page, ascending;
 * - `totals`: per entry, the number of results (up to the search window);
 * - `offsets`: per entry + 1, where its hits start in `hits`.
 * The metadata names the engine version the pages were ranked by: a server whose engine ranks
 * differently ignores them (its live answers and these would disagree from page to page).
 *
 * Beside the pages, optionally, the counts of two-word searches of the densest terms (PairCounts):
 * - `pairs.terms`: the counted term ids, ascending;
 * - `pairs.counts`: row-major, terms x terms: entry [i][j] is how many of the first `pairScan`
 *   documents of term i (its postings, in popularity order) also hold term j, or
 *   PAIR_NOT_COUNTED where term i would never drive the scan (it has more documents than j);
 * - `pairs.hits`, `pairs.totals`, `pairs.offsets`: the first pages of the two-word searches
 *   "term i, term j" (cell i * n + j, as `hits`, `totals` and `offsets` above); a cell without a
 *   page has total PAIR_NOT_COUNTED and no hits.
 *
 * And, optionally, the name groups of the matcher's first stage (name-groups.ts): `groups.blocks`,
 * `groups.starts`, `groups.offsets`; then the first pages of phrase searches (phrase-pages.ts):
 * `phrases.hits` and PHRASE_SECTIONS; then the first pages of prefixes that are no term (what
 * someone typing sends), keyed by their term range: `prefixes.hits` and PREFIX_SECTIONS; then
 * those of a word and a prefix ("love ni"), keyed by the word's term and the prefix's range:
 * `wordprefixes.hits` and WORD_PREFIX_SECTIONS, of `wordPrefixLimit` hits at most. Last, the
 * runs of the names held by `runMin` documents or more (name-runs.ts): `runs.hash`.
 *
 * This file reads the shard; first-pages-writer.ts writes it.
 */

export interface FirstPagesMeta {
  readonly type: string;
  /** The engine version that ranked the pages. */
  readonly engine: number;
  /** Hits kept per term: a page of up to this many (offset 0) is answered from here. */
  readonly limit: number;
  /** The search window the totals were counted to. */
  readonly window: number;
  /** The search index's term count, to check the two shards belong together. */
  readonly terms: number;
  /** The candidates each pair count covers (the engine's CANDIDATE_SCAN); 0 when no pairs are stored. */
  readonly pairScan?: number;
  /** NAME_GROUP_SCAN and NAME_GROUP_MIN of the stored name groups; 0 when none are stored. */
  readonly groupScan?: number;
  readonly groupMin?: number;
  /** Hits kept per word-and-prefix page (a page of up to this many is answered from there); 0 when none are stored. */
  readonly wordPrefixLimit?: number;
  /** NAME_RUN_MIN of the stored name runs; 0 when none are stored. */
  readonly runMin?: number;
}

export type { FirstPage } from './stored-page.js';

/** An entry of `pairs.counts` the compile did not count. */
export const PAIR_NOT_COUNTED = 0xffffffff;

/** Counts of the all-words tier of two-word searches, for the densest terms (see the sections above). */
export interface PairCounts {
  readonly terms: Uint32Array;
  readonly counts: Uint32Array;
  readonly scan: number;
}

interface PairSections {
  readonly terms: Uint32Array;
  readonly counts: Uint32Array;
  readonly totals: Uint32Array | null;
  readonly offsets: Uint32Array | null;
  readonly hits: Uint32Array | null;
}

/** Reads a first-pages shard; sections are viewed zero-copy on first use. */
export class FirstPages {
  readonly meta: FirstPagesMeta;
  private views: { terms: Uint32Array; totals: Uint32Array; offsets: Uint32Array; hits: Uint32Array } | null = null;
  private pairs: PairSections | null | undefined = undefined;
  private groups: NameGroups | null | undefined = undefined;
  private runs: NameRuns | null | undefined = undefined;
  private phraseSections: PhrasePages | null | undefined = undefined;
  private prefixSections: PhrasePages | null | undefined = undefined;
  private wordPrefixSections: PhrasePages | null | undefined = undefined;

  constructor(private readonly shard: Shard) {
    const m = shard.meta;
    this.meta = {
      type: String(m.type),
      engine: Number(m.engine),
      limit: Number(m.limit),
      window: Number(m.window),
      terms: Number(m.terms),
      pairScan: Number(m.pairScan ?? 0),
      groupScan: Number(m.groupScan ?? 0),
      groupMin: Number(m.groupMin ?? 0),
      wordPrefixLimit: Number(m.wordPrefixLimit ?? 0),
      runMin: Number(m.runMin ?? 0),
    };
  }

  /** Steps that each verify at most `chunkBytes` of a section: what first use would do whole, for a warm-up. */
  preparationSteps(chunkBytes: number): (() => void)[] {
    // As the search index's: a file an open snapshot shares is checked as it is read.
    return this.shard.inheritsVerification ? [] : this.shard.verificationSteps(chunkBytes);
  }

  private u32(name: string): Uint32Array {
    const s = this.shard.section(name);
    if (s.length % 4 !== 0) throw new FormatError('E_FORMAT_HEADER', `first-pages section ${name} is not u32-aligned`, this.shard.path);
    return this.shard.u32Array(s.start, s.length / 4);
  }

  private sections() {
    if (!this.views) {
      const views = { terms: this.u32('terms'), totals: this.u32('totals'), offsets: this.u32('offsets'), hits: this.u32('hits') };
      if (views.totals.length !== views.terms.length || views.offsets.length !== views.terms.length + 1) {
        throw new FormatError('E_FORMAT_HEADER', 'first-pages sections do not match their counts', this.shard.path);
      }
      this.views = views;
    }
    return this.views;
  }

  private pairSections(): PairSections | null {
    if (this.pairs === undefined) {
      this.pairs = null;
      if (this.shard.hasSection('pairs.terms')) {
        const terms = this.u32('pairs.terms');
        const counts = this.u32('pairs.counts');
        const paged = this.shard.hasSection('pairs.totals');
        const totals = paged ? this.u32('pairs.totals') : null;
        const offsets = paged ? this.u32('pairs.offsets') : null;
        const hits = paged ? this.u32('pairs.hits') : null;
        const cells = terms.length ** 2;
        if (counts.length !== cells || (totals && (totals.length !== cells || offsets!.length !== cells + 1))) {
          throw new FormatError('E_FORMAT_HEADER', 'first-pages pair sections do not match their counts', this.shard.path);
        }
        this.pairs = { terms, counts, totals, offsets, hits };
      }
    }
    return this.pairs;
  }

  /**
   * The name groups, or null when the shard has none or they were cut at another scan or size
   * than this reader's (the matcher would then miss documents, or look past its own limit).
   */
  nameGroups(): NameGroups | null {
    if (this.groups === undefined) {
      const fits = this.meta.groupScan === NAME_GROUP_SCAN && this.meta.groupMin === NAME_GROUP_MIN && this.shard.hasSection('groups.blocks');
      this.groups = fits ? new NameGroups(this.u32('groups.starts'), this.u32('groups.offsets'), this.u32('groups.blocks'), this.shard.path) : null;
    }
    return this.groups;
  }

  /** The name runs, or null when the shard has none or they were cut at another size than this reader's. */
  nameRuns(): NameRuns | null {
    if (this.runs === undefined) {
      const fits = this.meta.runMin === NAME_RUN_MIN && this.shard.hasSection('runs.hash');
      this.runs = fits ? new NameRuns(this.u32('runs.hash'), this.shard.path) : null;
    }
    return this.runs;
  }

  /** The phrase pages, or null when the shard has none. */
  phrases(): PhrasePages | null {
    if (this.phraseSections === undefined) this.phraseSections = this.keyedPages(PHRASE_SECTIONS, 'phrases.hits');
    return this.phraseSections;
  }

  /** The pages of prefixes that are no term, keyed by their term range [from, to]; null when the shard has none. */
  prefixes(): PhrasePages | null {
    if (this.prefixSections === undefined) this.prefixSections = this.keyedPages(PREFIX_SECTIONS, 'prefixes.hits');
    return this.prefixSections;
  }

  /** The pages of a word and a prefix, keyed by [word's term, prefix's range from, to]; null when the shard has none. */
  wordPrefixes(): PhrasePages | null {
    if (this.wordPrefixSections === undefined) this.wordPrefixSections = this.keyedPages(WORD_PREFIX_SECTIONS, 'wordprefixes.hits');
    return this.wordPrefixSections;
  }

  private keyedPages(sections: readonly string[], hits: string): PhrasePages | null {
    if (!this.shard.hasSection(sections[0])) return null;
    const [hashes, checks, entries, totals, offsets] = sections.map((name) => this.u32(name));
    return new PhrasePages(hashes, checks, entries, totals, offsets, this.u32(hits), this.shard.path);
  }

  /** Cell i * n + j of the counted terms `first` and `second`, or -1 when either is not counted. */
  private pairCell(pairs: PairSections, first: number, second: number): number {
    const i = hashRun(pairs.terms, first); // term ids are unique
    const j = hashRun(pairs.terms, second);
    return i.to === i.from || j.to === j.from ? -1 : i.from * pairs.terms.length + j.from;
  }

  /** The stored page of the two-word search "first second" (term ids), or null when the compile kept none for it. */
  pairPage(first: number, second: number): FirstPage | null {
    const pairs = this.pairSections();
    if (!pairs?.totals) return null;
    const cell = this.pairCell(pairs, first, second);
    if (cell < 0 || pairs.totals[cell] === PAIR_NOT_COUNTED) return null;
    return pageOf(pairs.hits!, pairs.offsets![cell], pairs.offsets![cell + 1], pairs.totals[cell]);
  }

  /**
   * How many of the first `meta.pairScan` documents of term `driver` also hold term `other`, as
   * the compile counted it; -1 when it did not (either term is not among the counted ones, or
   * `driver` has more documents than `other`).
   */
  pairCount(driver: number, other: number): number {
    const pairs = this.pairSections();
    const cell = pairs ? this.pairCell(pairs, driver, other) : -1;
    const count = cell < 0 ? PAIR_NOT_COUNTED : pairs!.counts[cell];
    return count === PAIR_NOT_COUNTED ? -1 : count;
  }

  /** The stored page of a term id, or null when the compile kept none for it. */
  page(termId: number): FirstPage | null {
    const { terms, totals, offsets, hits } = this.sections();
    const entry = hashRun(terms, termId); // term ids are unique: a run of one, or none
    if (entry.to === entry.from) return null;
    const at = entry.from;
    return pageOf(hits, offsets[at], offsets[at + 1], totals[at]);
  }
}
