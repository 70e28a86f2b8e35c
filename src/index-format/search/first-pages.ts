import { SHARD_KINDS } from '../constants.js';
import { FormatError } from '../errors.js';
import { NAME_GROUP_MIN, NAME_GROUP_SCAN, NameGroups } from './name-groups.js';
import { PHRASE_SECTIONS, PhraseEntries, PhrasePages } from './phrase-pages.js';
import { hashRun } from './search-keys.js';
import type { Shard } from '../shards/shard-reader.js';
import { ShardWriter, type WrittenShard } from '../shards/shard-writer.js';
import { encodeHit, pageOf, type FirstPage } from './stored-page.js';
import { GrowableU32, u32Bytes } from '../u32.js';

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
 * `phrases.hits` and PHRASE_SECTIONS.
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

/**
 * Writes the shard as pages arrive in ascending term order: hits go straight to the file, and
 * only three numbers per term stay in memory until the end.
 */
export class FirstPagesWriter {
  private readonly writer: ShardWriter;
  private readonly terms = new GrowableU32();
  private readonly totals = new GrowableU32();
  private readonly offsets = new GrowableU32();
  private readonly hitBytes = Buffer.alloc(4);
  private hitCount = 0;
  private last = -1;
  private pairs: { counts: PairCounts; totals: Uint32Array; offsets: Uint32Array; next: number; hits: number } | null = null;
  private groups: { starts: GrowableU32; offsets: GrowableU32; words: number } | null = null;
  private phrases: PhraseEntries | null = null;

  constructor(path: string, buildId: string) {
    this.writer = new ShardWriter(path, SHARD_KINDS.blob, buildId);
    this.writer.beginSection('hits');
    this.offsets.push(0);
  }

  get size(): number {
    return this.terms.length;
  }

  add(termId: number, total: number, hits: readonly { rank: number; tier: number }[]): void {
    if (this.pairs || this.groups || this.phrases)
      throw new Error('first pages: a one-word page after the two-word pages, the name groups or the phrases began');
    if (termId <= this.last) throw new Error(`first pages: term ${termId} after ${this.last}`);
    this.last = termId;
    this.terms.push(termId);
    this.totals.push(total);
    this.writeHits(hits);
    this.hitCount += hits.length;
    this.offsets.push(this.hitCount);
  }

  /** Ends the one-word pages and begins the two-word pages of the pairs of `counts.terms`. */
  beginPairs(counts: PairCounts): void {
    if (this.groups || this.phrases) throw new Error('first pages: two-word pages after the name groups or the phrases began');
    checkCounts(counts);
    const cells = counts.terms.length ** 2;
    this.writer.endSection();
    this.writer.beginSection('pairs.hits');
    this.pairs = { counts, totals: new Uint32Array(cells).fill(PAIR_NOT_COUNTED), offsets: new Uint32Array(cells + 1), next: 0, hits: 0 };
  }

  /** The page of the two-word search "terms[i] terms[j]", cell i * n + j: cells ascending, any left out have no page. */
  addPair(cell: number, total: number, hits: readonly { rank: number; tier: number }[]): void {
    const pairs = this.pairs;
    if (!pairs || this.groups || this.phrases) throw new Error('first pages: a two-word page outside beginPairs .. beginNameGroups');
    if (cell < pairs.next || cell >= pairs.totals.length) throw new Error(`first pages: pair cell ${cell} after ${pairs.next - 1} of ${pairs.totals.length}`);
    if (total === PAIR_NOT_COUNTED) throw new Error('first pages: a pair total does not fit');
    pairs.offsets.fill(pairs.hits, pairs.next + 1, cell + 1);
    pairs.totals[cell] = total;
    this.writeHits(hits);
    pairs.hits += hits.length;
    pairs.offsets[cell + 1] = pairs.hits;
    pairs.next = cell + 1;
  }

  /** Ends the pages and begins the name groups (name-groups.ts). */
  beginNameGroups(): void {
    if (this.groups || this.phrases) throw new Error('first pages: the name groups began twice, or after the phrases');
    this.writer.endSection();
    this.writer.beginSection('groups.blocks');
    const offsets = new GrowableU32();
    offsets.push(0);
    this.groups = { starts: new GrowableU32(), offsets, words: 0 };
  }

  /** The block (nameGroupBlock) of the group starting at `start` in `names.order`: starts ascending. */
  addNameGroup(start: number, block: Uint32Array): void {
    const groups = this.groups;
    if (!groups || this.phrases) throw new Error('first pages: a name group outside beginNameGroups .. beginPhrases');
    if (groups.starts.length > 0 && start <= groups.starts.get(groups.starts.length - 1))
      throw new Error(`first pages: name group at ${start} after ${groups.starts.get(groups.starts.length - 1)}`);
    groups.starts.push(start);
    this.writer.write(u32Bytes(block));
    groups.words += block.length;
    groups.offsets.push(groups.words);
  }

  /** Ends what came before and begins the pages of phrase searches (phrase-pages.ts). */
  beginPhrases(): void {
    if (this.phrases) throw new Error('first pages: the phrases began twice');
    this.writer.endSection();
    this.writer.beginSection('phrases.hits');
    this.phrases = new PhraseEntries();
  }

  /** The page of the phrase search whose terms are `ids`, in query order (any order of phrases). */
  addPhrase(ids: ArrayLike<number>, total: number, hits: readonly { rank: number; tier: number }[]): void {
    const phrases = this.phrases;
    if (!phrases) throw new Error('first pages: a phrase page before beginPhrases');
    phrases.add(ids, total, hits.length);
    this.writeHits(hits);
  }

  /** Phrase pages written so far. */
  get phraseCount(): number {
    return this.phrases?.size ?? 0;
  }

  /**
   * Writes the rest of the shard. `counts`: the pair counts to store when no two-word pages were
   * begun (beginPairs stored its own).
   */
  finish(meta: FirstPagesMeta, counts?: PairCounts): WrittenShard {
    this.writer.endSection();
    this.writer.section('terms', u32Bytes(this.terms.view()));
    this.writer.section('totals', u32Bytes(this.totals.view()));
    this.writer.section('offsets', u32Bytes(this.offsets.view()));
    const pairs = this.pairs;
    const stored = pairs ? pairs.counts : counts;
    if (stored) {
      checkCounts(stored);
      this.writer.section('pairs.terms', u32Bytes(stored.terms));
      this.writer.section('pairs.counts', u32Bytes(stored.counts));
    }
    if (pairs) {
      pairs.offsets.fill(pairs.hits, pairs.next + 1);
      this.writer.section('pairs.totals', u32Bytes(pairs.totals));
      this.writer.section('pairs.offsets', u32Bytes(pairs.offsets));
    }
    const groups = this.groups;
    if (groups) {
      this.writer.section('groups.starts', u32Bytes(groups.starts.view()));
      this.writer.section('groups.offsets', u32Bytes(groups.offsets.view()));
    }
    const phrases = this.phrases?.sections();
    if (phrases) PHRASE_SECTIONS.forEach((name, i) => this.writer.section(name, u32Bytes(phrases[i])));
    return this.writer.finish({ ...meta, pairScan: stored ? stored.scan : 0, groupScan: groups ? NAME_GROUP_SCAN : 0, groupMin: groups ? NAME_GROUP_MIN : 0 });
  }

  private writeHits(hits: readonly { rank: number; tier: number }[]): void {
    for (const h of hits) {
      this.hitBytes.writeUInt32LE(encodeHit(h.rank, h.tier), 0);
      this.writer.write(this.hitBytes);
    }
  }
}

function checkCounts(counts: PairCounts): void {
  if (counts.counts.length !== counts.terms.length ** 2) throw new Error(`first pages: ${counts.counts.length} pair counts for ${counts.terms.length} terms`);
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
  private phraseSections: PhrasePages | null | undefined = undefined;

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
    };
  }

  /** Steps that each verify at most `chunkBytes` of a section: what first use would do whole, for a warm-up. */
  preparationSteps(chunkBytes: number): (() => void)[] {
    return this.shard.verificationSteps(chunkBytes);
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

  /** The phrase pages, or null when the shard has none. */
  phrases(): PhrasePages | null {
    if (this.phraseSections === undefined) {
      this.phraseSections = null;
      if (this.shard.hasSection('phrases.hashes')) {
        const [hashes, checks, entries, totals, offsets] = PHRASE_SECTIONS.map((name) => this.u32(name));
        this.phraseSections = new PhrasePages(hashes, checks, entries, totals, offsets, this.u32('phrases.hits'), this.shard.path);
      }
    }
    return this.phraseSections;
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
