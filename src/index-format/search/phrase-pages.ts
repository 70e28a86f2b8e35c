import { FormatError } from '../errors.js';
import { hashedTable, hashRun, wordSetHash } from './search-keys.js';
import { pageOf, type FirstPage } from './stored-page.js';
import { GrowableU32 } from '../u32.js';

/**
 * First pages of phrase searches: a query of several terms that some name writes as one word
 * ("さくら", which the normalisation splits into a term per character, "rock'n'roll", "AC/DC"),
 * ranked by the compile as one-word searches are (first-pages.ts). Keyed by the query's term ids
 * in order, hashed twice: the table is sorted by the first hash (seed 0), the second (seed 1)
 * confirms a match, so a query takes another phrase's page only when 64 bits of hash agree (as
 * the word-set keys do). Sections (u32), after `phrases.hits` (the hits, as `hits`):
 * - `phrases.hashes`: per entry, the first hash, ascending;
 * - `phrases.checks`: per entry, the second hash;
 * - `phrases.entries`: per entry, the phrase's number (the order the pages were written in);
 * - `phrases.totals`: per phrase, the number of results (up to the search window);
 * - `phrases.offsets`: per phrase + 1, where its hits start in `phrases.hits`.
 */
export const PHRASE_SECTIONS = ['phrases.hashes', 'phrases.checks', 'phrases.entries', 'phrases.totals', 'phrases.offsets'] as const;

/**
 * First pages of prefixes (the last word while someone types: "lo", "lov") that are no term of
 * the index: the same tables, keyed by the prefix's term range [from, to) as the ids [from, to]
 * (a one-word query's tiers 0 to 3 depend on that range alone, and the compile stores a page
 * only when they found enough that the typo-tolerant tiers did not run). After `prefixes.hits`.
 */
export const PREFIX_SECTIONS = ['prefixes.hashes', 'prefixes.checks', 'prefixes.entries', 'prefixes.totals', 'prefixes.offsets'] as const;

/**
 * First pages of a word and a prefix (someone typing the second word: "love ni"), the word a term
 * and the prefix no term: the same tables, keyed by [the word's term id, the prefix's term range
 * from, to]. A two-word query's tiers 0 to 3 depend on those alone, as a prefix's do on its range;
 * the compile stores a page only when they found enough that the typo-tolerant tiers did not
 * run. These pages keep fewer hits (FirstPagesMeta.wordPrefixLimit). After `wordprefixes.hits`.
 */
export const WORD_PREFIX_SECTIONS = [
  'wordprefixes.hashes',
  'wordprefixes.checks',
  'wordprefixes.entries',
  'wordprefixes.totals',
  'wordprefixes.offsets',
] as const;

/** A phrase has at most this many terms: a longer query is searched live. */
export const PHRASE_TERMS_MAX = 32;

/** Hash of a phrase: its term ids in query order (the mix reads them in the order given). */
export function phraseHash(ids: ArrayLike<number>, seed: 0 | 1): number {
  return wordSetHash(ids, seed);
}

/** What the writer keeps per phrase until the end: four numbers. */
export class PhraseEntries {
  private readonly hashes = new GrowableU32();
  private readonly checks = new GrowableU32();
  private readonly totals = new GrowableU32();
  private readonly offsets = new GrowableU32();
  private hits = 0;

  constructor() {
    this.offsets.push(0);
  }

  get size(): number {
    return this.totals.length;
  }

  /** A phrase whose `hitCount` hits were just written to `phrases.hits`. */
  add(ids: ArrayLike<number>, total: number, hitCount: number): void {
    if (ids.length < 2 || ids.length > PHRASE_TERMS_MAX) throw new Error(`first pages: a phrase of ${ids.length} terms`);
    this.hashes.push(phraseHash(ids, 0));
    this.checks.push(phraseHash(ids, 1));
    this.totals.push(total);
    this.hits += hitCount;
    this.offsets.push(this.hits);
  }

  /** The sections after `phrases.hits`, in PHRASE_SECTIONS order. */
  sections(): Uint32Array[] {
    const n = this.totals.length;
    const table = hashedTable(
      this.hashes.view(),
      Uint32Array.from({ length: n }, (_, i) => i),
      n,
      this.checks.view(),
    );
    return [table.hashes, table.checks!, table.values, this.totals.view(), this.offsets.view()];
  }
}

/** Reads the phrase sections of a first-pages shard. */
export class PhrasePages {
  constructor(
    private readonly hashes: Uint32Array,
    private readonly checks: Uint32Array,
    private readonly entries: Uint32Array,
    private readonly totals: Uint32Array,
    private readonly offsets: Uint32Array,
    private readonly hits: Uint32Array,
    path: string,
  ) {
    const n = totals.length;
    if (hashes.length !== n || checks.length !== n || entries.length !== n || offsets.length !== n + 1 || offsets[n] !== hits.length) {
      throw new FormatError('E_FORMAT_HEADER', 'first-pages phrase sections do not match their counts', path);
    }
  }

  get size(): number {
    return this.totals.length;
  }

  /** The stored page of the phrase whose term ids are `ids` (in query order), or null. */
  page(ids: ArrayLike<number>): FirstPage | null {
    const run = hashRun(this.hashes, phraseHash(ids, 0));
    if (run.to === run.from) return null;
    const check = phraseHash(ids, 1);
    for (let k = run.from; k < run.to; k++) {
      if (this.checks[k] !== check) continue;
      const e = this.entries[k];
      return pageOf(this.hits, this.offsets[e], this.offsets[e + 1], this.totals[e]);
    }
    return null;
  }
}
