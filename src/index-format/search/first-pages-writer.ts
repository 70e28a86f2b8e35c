import { SHARD_KINDS } from '../constants.js';
import { ShardWriter, type WrittenShard } from '../shards/shard-writer.js';
import { GrowableU32, u32Bytes } from '../u32.js';
import { type FirstPagesMeta, PAIR_NOT_COUNTED, type PairCounts } from './first-pages.js';
import { NAME_GROUP_MIN, NAME_GROUP_SCAN } from './name-groups.js';
import { NAME_RUN_MIN } from './name-runs.js';
import { PHRASE_SECTIONS, PhraseEntries, PREFIX_SECTIONS, WORD_PREFIX_SECTIONS } from './phrase-pages.js';
import { encodeHit } from './stored-page.js';

/* The writer of a first-pages shard; its sections are described in first-pages.ts, which reads it. */

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
  private prefixes: PhraseEntries | null = null;
  private wordPrefixes: { entries: PhraseEntries; limit: number } | null = null;
  private nameRuns: Uint32Array | null = null;

  constructor(path: string, buildId: string) {
    this.writer = new ShardWriter(path, SHARD_KINDS.blob, buildId);
    this.writer.beginSection('hits');
    this.offsets.push(0);
  }

  get size(): number {
    return this.terms.length;
  }

  add(termId: number, total: number, hits: readonly { rank: number; tier: number }[]): void {
    if (this.pairs || this.groups || this.phrases || this.prefixes)
      throw new Error('first pages: a one-word page after the two-word pages, the name groups, the phrases or the prefixes began');
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
    if (this.phrases || this.prefixes) throw new Error('first pages: the phrases began twice, or after the prefixes');
    this.writer.endSection();
    this.writer.beginSection('phrases.hits');
    this.phrases = new PhraseEntries();
  }

  /** The page of the phrase search whose terms are `ids`, in query order (any order of phrases). */
  addPhrase(ids: ArrayLike<number>, total: number, hits: readonly { rank: number; tier: number }[]): void {
    const phrases = this.phrases;
    if (!phrases || this.prefixes) throw new Error('first pages: a phrase page outside beginPhrases .. beginPrefixes');
    phrases.add(ids, total, hits.length);
    this.writeHits(hits);
  }

  /** Ends what came before and begins the pages of prefixes that are no term (phrase-pages.ts, PREFIX_SECTIONS). */
  beginPrefixes(): void {
    if (this.prefixes) throw new Error('first pages: the prefixes began twice');
    this.writer.endSection();
    this.writer.beginSection('prefixes.hits');
    this.prefixes = new PhraseEntries();
  }

  /** The page of the prefixes whose term range is [from, to) (any order). */
  addPrefix(from: number, to: number, total: number, hits: readonly { rank: number; tier: number }[]): void {
    const prefixes = this.prefixes;
    if (!prefixes || this.wordPrefixes) throw new Error('first pages: a prefix page outside beginPrefixes .. beginWordPrefixes');
    prefixes.add([from, to], total, hits.length);
    this.writeHits(hits);
  }

  /** Ends the prefixes and begins the pages of a word and a prefix (WORD_PREFIX_SECTIONS), of up to `limit` hits each. */
  beginWordPrefixes(limit: number): void {
    if (!this.prefixes || this.wordPrefixes) throw new Error('first pages: the word-and-prefix pages began twice, or before the prefixes');
    this.writer.endSection();
    this.writer.beginSection('wordprefixes.hits');
    this.wordPrefixes = { entries: new PhraseEntries(), limit };
  }

  /** The page of the word whose term is `word` and the prefix whose term range is [from, to) (any order). */
  addWordPrefix(word: number, from: number, to: number, total: number, hits: readonly { rank: number; tier: number }[]): void {
    const pages = this.wordPrefixes;
    if (!pages) throw new Error('first pages: a word-and-prefix page before beginWordPrefixes');
    if (hits.length > pages.limit) throw new Error(`first pages: a word-and-prefix page of ${hits.length} hits, over ${pages.limit}`);
    pages.entries.add([word, from, to], total, hits.length);
    this.writeHits(hits);
  }

  /** The `runs.hash` section (name-runs.ts, nameRunTable), written by finish. */
  setNameRuns(table: Uint32Array): void {
    this.nameRuns = table;
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
    const prefixes = this.prefixes?.sections();
    if (prefixes) PREFIX_SECTIONS.forEach((name, i) => this.writer.section(name, u32Bytes(prefixes[i])));
    const wordPrefixes = this.wordPrefixes?.entries.sections();
    if (wordPrefixes) WORD_PREFIX_SECTIONS.forEach((name, i) => this.writer.section(name, u32Bytes(wordPrefixes[i])));
    if (this.nameRuns) this.writer.section('runs.hash', u32Bytes(this.nameRuns));
    return this.writer.finish({
      ...meta,
      pairScan: stored ? stored.scan : 0,
      groupScan: groups ? NAME_GROUP_SCAN : 0,
      groupMin: groups ? NAME_GROUP_MIN : 0,
      wordPrefixLimit: this.wordPrefixes?.limit ?? 0,
      runMin: this.nameRuns ? NAME_RUN_MIN : 0,
    });
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
