import { SHARD_KINDS } from '../../index-format/constants.js';
import { rmSync } from 'node:fs';
import type { FirstPagesMeta, PairCounts } from '../../index-format/search/first-pages.js';
import { FirstPagesWriter } from '../../index-format/search/first-pages-writer.js';
import { SearchIndex } from '../../index-format/search/search-index.js';
import { searchText } from '../../index-format/search/search-text.js';
import { openShard } from '../../index-format/shards/shard-reader.js';
import type { WrittenShard } from '../../index-format/shards/shard-writer.js';
import { CANDIDATE_SCAN, SEARCH_ENGINE_VERSION, SEARCH_WINDOW, searchIndex, type SearchResult } from '../../search/search-engine.js';
import { forEachNameGroup } from './name-groups.js';
import { nameRunSection } from './name-runs.js';
import { countPairs, PAIR_TERMS_MAX } from './pair-counts.js';
import { rankPhrases, type PhraseSource } from './phrase-pages.js';
import { PREFIX_TERMS_COSTLY, rankPrefixes } from './prefix-pages.js';
import { rankWordPrefixes, WORD_PREFIX_PAGE_LIMIT } from './word-prefix-pages.js';

/** Hits kept per term: interface 1's default page (25) and interface 2's (10) are answered whole. */
export const FIRST_PAGE_LIMIT = 25;
/**
 * A term gets a stored first page when the documents holding a word that starts with it number
 * at least this many, or when it starts PREFIX_TERMS_COSTLY terms or more (prefix-pages.ts): the
 * searches whose live cost grows with the catalog (their tiers scan up to CANDIDATE_SCAN
 * postings). Rarer terms stay live: a few lookups and a short scan.
 */
export const FIRST_PAGE_MIN_POSTINGS = 256;

/**
 * Besides, the terms held by the most documents get a page, this many at most per index (25
 * hits: at most 6.6 MB): a rarer term's live search is a few microseconds of lookups and a short
 * scan (4 us on the generated catalog's playlists, 1M songs, warmed), which the explorer pays
 * once per group on every keystroke, and people search the words their catalog holds most.
 */
export const MOST_HELD_TERM_PAGES = 65_536;

/**
 * Ranks every costly one-word search of a written search shard with the search engine itself and
 * writes the first pages beside it (index-format/search/first-pages.ts): the server answers those
 * queries from there, the same hits and total as live. Memory: three numbers per stored term.
 * Then, for the densest terms (pair-counts.ts; held by `minPostings` documents or more, as a
 * stored one-word page's are), every two-word search of two of them: its count
 * (for pages past the stored ones: the server ranks only the page and takes the total from the
 * count) and its first page (answered as a one-word page is). At most 256 terms: 65,280 pages.
 * Then the name groups of the matcher's first stage (name-groups.ts) and the runs of the names
 * many documents hold (name-runs.ts). Last, given the names the
 * index searches (`phrases`), the first pages of their words that normalise to several terms
 * (phrase-pages.ts): "さくら" is searched as "さ く ら", three terms. Then the pages of the
 * prefixes someone typing sends that are no term (prefix-pages.ts), and of a dense term
 * followed by such a prefix (word-prefix-pages.ts: someone typing the second word).
 */
export function writeFirstPages(
  searchShardPath: string,
  outPath: string,
  buildId: string,
  {
    limit = FIRST_PAGE_LIMIT,
    minPostings = FIRST_PAGE_MIN_POSTINGS,
    mostHeld = MOST_HELD_TERM_PAGES,
    pairTerms = PAIR_TERMS_MAX,
    phrases,
  }: { limit?: number; minPostings?: number; mostHeld?: number; pairTerms?: number; phrases?: PhraseSource } = {},
): WrittenShard & { readonly pages: number; readonly phrasePages: number; readonly prefixPages: number; readonly wordPrefixPages: number } {
  const shard = openShard(searchShardPath, SHARD_KINDS.blob);
  try {
    const index = new SearchIndex(shard);
    const offsets = index.u32('postings.offsets');
    const writer = new FirstPagesWriter(outPath, buildId);
    const heldEnough = mostHeldThreshold(offsets, index.terms, mostHeld);
    for (let id = 0; id < index.terms; id++) {
      const term = index.term(id);
      const range = index.prefixRange(term);
      const costly = offsets[range.to] - offsets[range.from] >= minPostings || range.to - range.from >= PREFIX_TERMS_COSTLY;
      if (!costly && offsets[id + 1] - offsets[id] < heldEnough) continue;
      const result = searchIndex(index, term, { need: limit });
      writer.add(id, result.total, result.hits);
    }
    const pages = writer.size;
    const meta: FirstPagesMeta = { type: index.type, engine: SEARCH_ENGINE_VERSION, limit, window: SEARCH_WINDOW, terms: index.terms };
    const pairs = countPairs(index, Math.max(CANDIDATE_SCAN, SEARCH_WINDOW), { maxTerms: pairTerms, minPostings });
    writer.beginPairs(pairs);
    rankPairs(searchShardPath, `${outPath}.pair-counts`, buildId, meta, pairs, (cell, result) => writer.addPair(cell, result.total, result.hits));
    writer.beginNameGroups();
    forEachNameGroup(index, (start, block) => writer.addNameGroup(start, block));
    writer.setNameRuns(nameRunSection(index));
    if (phrases) {
      writer.beginPhrases();
      rankPhrases(index, writer, phrases, { limit, minPostings, pairTerms: pairs.terms });
    }
    const phrasePages = writer.phraseCount;
    writer.beginPrefixes();
    const prefixPages = rankPrefixes(index, writer, { limit, minPostings });
    writer.beginWordPrefixes(WORD_PREFIX_PAGE_LIMIT);
    const wordPrefixPages = rankWordPrefixes(index, writer, { limit: WORD_PREFIX_PAGE_LIMIT, minPostings });
    return { ...writer.finish(meta), pages, phrasePages, prefixPages, wordPrefixPages };
  } finally {
    shard.close();
  }
}

/**
 * The fewest documents a term may hold and be among the `count` terms held by the most: at most
 * `count` terms hold that many or more (a histogram of the counts, capped at 2^16: no sort).
 * Infinity when `count` is 0.
 */
export function mostHeldThreshold(offsets: Uint32Array, terms: number, count: number): number {
  if (count <= 0) return Infinity;
  if (terms <= count) return 0;
  const CAP = 1 << 16;
  const histogram = new Uint32Array(CAP + 1);
  for (let id = 0; id < terms; id++) histogram[Math.min(CAP, offsets[id + 1] - offsets[id])]++;
  let atLeast = 0;
  for (let held = CAP; held > 0; held--) {
    if (atLeast + histogram[held] > count) return held + 1;
    atLeast += histogram[held];
  }
  return 1;
}

/**
 * Ranks the two-word search of every two counted terms (cells i * n + j, ascending) and hands
 * each result to `add`. The ranking takes the all-words counts from `pairs`
 * (written to `countsPath` while it runs, then removed): a third cheaper than counting live.
 */
function rankPairs(
  searchShardPath: string,
  countsPath: string,
  buildId: string,
  meta: FirstPagesMeta,
  pairs: PairCounts,
  add: (cell: number, result: SearchResult) => void,
): void {
  new FirstPagesWriter(countsPath, buildId).finish(meta, pairs);
  const shard = openShard(searchShardPath, SHARD_KINDS.blob);
  const counts = openShard(countsPath, SHARD_KINDS.blob);
  try {
    const index = new SearchIndex(shard, counts);
    const n = pairs.terms.length;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        // The query whose words are these two terms (the engine looks the page up by them).
        const term = `${index.term(pairs.terms[i])} ${index.term(pairs.terms[j])}`;
        if (searchText(term) !== term) continue;
        add(i * n + j, searchIndex(index, term, { need: meta.limit }));
      }
    }
  } finally {
    counts.close();
    shard.close();
    rmSync(countsPath, { force: true });
  }
}
