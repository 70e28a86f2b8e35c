import { mkdirSync, rmSync } from 'node:fs';
import { SHARD_KINDS } from '../../index-format/constants.js';
import { SEARCH_SECTIONS, searchShardMeta, type SearchSection } from '../../index-format/search/search-sections.js';
import { ShardWriter, type WrittenShard } from '../../index-format/shards/shard-writer.js';
import { mapU32Column, NumberColumnWriter, StringColumn, StringColumnWriter } from '../spill/columns.js';
import { ExternalSorter } from '../../sort/external-sort.js';
import { FixedSorter } from '../../sort/fixed-sort.js';
import { SpillDir } from '../spill/spill-dir.js';
import { openSearchInputs, type SearchDocumentFiles, type SearchInputs } from './inputs.js';
import { writeNameHashTable } from './name-hash-table.js';
import { orderNames } from './name-order.js';
import { readRanks, type TermLists } from './rank-pass.js';
import { writeFileBytes, writeStringOffsets } from './section-files.js';
import { drainPostings, drainTypoKeys, drainWordSetKeys } from './sorted-tables.js';
import { numberTerms, type TermDictionary } from './term-dictionary.js';
import { writeTermHash } from './term-hash.js';
import { joinTokens, splitTermIds } from './token-join.js';
import { RecentTerms } from './token-hash.js';
import { readArtists, readNames, TokenSink } from './token-pass.js';

/**
 * Each sorter's share of the budget. Sorters that are alive together share it: reading tokens
 * (occurrences, term strings, the recent-terms table), numbering terms (occurrences and term
 * strings still hold theirs, plus terms by hash and typo keys), joining (occurrences, terms by
 * hash, by token), the rank pass (postings, keys), then the name order alone and terms.hash alone.
 */
const SHARE = {
  occurrences: 1 / 2,
  termStrings: 1 / 4,
  recentTerms: 1 / 8,
  termsByHash: 1 / 8,
  typo: 1 / 8,
  byToken: 1 / 4,
  postings: 1 / 2,
  keys: 1 / 2,
  names: 1,
  nameHashes: 1,
  termHomes: 1,
};
/** The recent-terms table never needs more: it only thins out repeats before a sort that drops them anyway. */
const RECENT_TERMS_MAX = 16 * 2 ** 20;

/**
 * Builds one search shard out of core: every per-document and per-token table goes through
 * sorters and column files in a directory of its own under `spill`, removed at the end, and
 * memory stays near `budgetBytes` (sorter arenas; plus a read block per spilled run while
 * merging, and a few write buffers) whatever the number of documents or terms; the same bytes
 * whatever the budget (search-sections.ts describes them). The one writer of the format: tests
 * write their small indexes with it too. `onPhase` hears the name
 * of each phase as it ends (tokens, terms, ranks, names order, sections).
 */
export function buildSearchIndex(
  path: string,
  buildId: string,
  files: SearchDocumentFiles,
  spill: SpillDir,
  budgetBytes: number,
  onPhase: (phase: string) => void = () => undefined,
): WrittenShard {
  const dir = spill.file(files.type);
  mkdirSync(dir);
  try {
    return new SearchBuilder(dir, budgetBytes, openSearchInputs(files), onPhase).write(path, buildId, files.ordinals);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The build's files in its spill directory: string columns, u32 columns, and the sections a file holds whole. */
const SPILL_FILES = [
  'names',
  'terms',
  'term-key-hashes',
  'term-homes',
  'artist-terms.offsets',
  'artist-terms.targets',
  'postings.offsets',
  'postings',
  'docname.offsets',
  'docname.targets',
  'docartist.offsets',
  'docartist.targets',
  'names.order',
  'name-position-hashes',
  'names.hashes',
  'keys.hashes',
  'keys.ranks',
  'keys.checks',
  'typo.hashes',
  'typo.terms',
] as const;
type SpillFile = (typeof SPILL_FILES)[number];

class SearchBuilder {
  private readonly path: Record<SpillFile, string>;

  constructor(
    private readonly dir: string,
    private readonly budget: number,
    private readonly inputs: SearchInputs,
    private readonly onPhase: (phase: string) => void,
  ) {
    const files = SpillDir.attach(dir, '');
    this.path = Object.fromEntries(SPILL_FILES.map((n) => [n, files.file(n)])) as Record<SpillFile, string>;
  }

  private sorter(name: keyof typeof SHARE, width: number, keyWords: number): FixedSorter {
    return new FixedSorter(this.dir, name, width, keyWords, this.budget * SHARE[name]);
  }

  /** u32 column files written by `fill`, then closed. */
  private columns(names: SpillFile[], fill: (...writers: NumberColumnWriter[]) => void): void {
    const writers = names.map((n) => new NumberColumnWriter(this.path[n], 'u32'));
    fill(...writers);
    for (const w of writers) w.finish();
  }

  private lists(offsets: SpillFile, targets: SpillFile): TermLists {
    return { offsets: mapU32Column(this.path[offsets]), targets: mapU32Column(this.path[targets]) };
  }

  /** Runs the passes, then writes the sections in SEARCH_SECTIONS order. */
  write(path: string, buildId: string, ordinalsPath: string): WrittenShard {
    const terms = this.termIds();
    this.readRanks(terms.count);
    this.onPhase('ranks');
    const names = new ExternalSorter(this.dir, 'names', this.budget * SHARE.names);
    this.columns(['names.order', 'name-position-hashes'], (order, hashes) =>
      orderNames(StringColumn.open(this.path.names), this.lists('docname.offsets', 'docname.targets'), terms.count, names, order, hashes),
    );
    this.columns(['names.hashes'], (out) =>
      writeNameHashTable(
        mapU32Column(this.path['names.order']),
        mapU32Column(this.path['name-position-hashes']),
        StringColumn.open(this.path.names),
        this.sorter('nameHashes', 3, 2),
        out,
      ),
    );
    this.onPhase('names order');

    const p = this.path;
    const writer = new ShardWriter(path, SHARD_KINDS.blob, buildId);
    const copy = (file: string) => () => writeFileBytes(writer, file);
    const body: Record<SearchSection, () => void> = {
      'terms.offsets': () => writeStringOffsets(writer, p.terms),
      'terms.bytes': copy(`${p.terms}.data`),
      'terms.hash': () => writeTermHash(writer, mapU32Column(p['term-key-hashes']), this.sorter('termHomes', 2, 1), p['term-homes']),
      'postings.offsets': copy(p['postings.offsets']),
      postings: copy(p.postings),
      'docname.offsets': copy(p['docname.offsets']),
      'docname.targets': copy(p['docname.targets']),
      'docartist.offsets': copy(p['docartist.offsets']),
      'docartist.targets': copy(p['docartist.targets']),
      'names.offsets': () => writeStringOffsets(writer, p.names),
      'names.bytes': copy(`${p.names}.data`),
      'names.order': copy(p['names.order']),
      'names.hashes': copy(p['names.hashes']),
      'keys.hashes': copy(p['keys.hashes']),
      'keys.ranks': copy(p['keys.ranks']),
      'keys.checks': copy(p['keys.checks']),
      'typo.hashes': copy(p['typo.hashes']),
      'typo.terms': copy(p['typo.terms']),
      ordinals: copy(ordinalsPath),
    };
    for (const name of SEARCH_SECTIONS) {
      writer.beginSection(name);
      body[name]();
      writer.endSection();
    }
    const shard = writer.finish(searchShardMeta(this.inputs.type, this.inputs.ordinals.length, terms.count, terms.alphabet));
    this.onPhase('sections');
    return shard;
  }

  /**
   * Tokens, then terms: the sorters live in here only, so their arenas are gone (to the garbage
   * collector) before the next phase takes its share.
   */
  private termIds(): TermDictionary {
    const occurrences = this.sorter('occurrences', 3, 2);
    const termStrings = new ExternalSorter(this.dir, 'term-strings', this.budget * SHARE.termStrings);
    const nameTokens = this.readTokens(occurrences, termStrings);
    this.onPhase('tokens');
    const terms = this.numberTerms(occurrences, termStrings, nameTokens);
    this.onPhase('terms');
    return terms;
  }

  /** Names and credited artists, tokenised: returns how many name tokens there are. */
  private readTokens(occurrences: FixedSorter, termStrings: ExternalSorter): number {
    const { inputs, path } = this;
    const sink = new TokenSink(occurrences, termStrings, new RecentTerms(Math.min(RECENT_TERMS_MAX, this.budget * SHARE.recentTerms)));
    const credits = inputs.credits;
    const credited = credits ? new Uint8Array((credits.artistNames.length + 7) >>> 3) : null;
    const names = new StringColumnWriter(path.names);
    this.columns(['docname.offsets'], (offsets) => readNames(inputs, names, offsets, sink, credited));
    names.finish();
    const nameTokens = sink.count;
    this.columns(['artist-terms.offsets'], (offsets) => {
      if (credits) readArtists(credits.artistNames, credited!, offsets, sink);
    });
    return nameTokens;
  }

  /** Term ids in byte order, then every token's term id: docname.targets and each artist's term ids. */
  private numberTerms(occurrences: FixedSorter, termStrings: ExternalSorter, nameTokens: number): TermDictionary {
    const termsByHash = this.sorter('termsByHash', 3, 2);
    const typo = this.sorter('typo', 2, 1);
    const strings = new StringColumnWriter(this.path.terms);
    let dictionary!: TermDictionary;
    this.columns(['term-key-hashes'], (keyHashes) => (dictionary = numberTerms(termStrings, { strings, keyHashes, byHash: termsByHash, typo })));
    strings.finish();
    this.columns(['typo.hashes', 'typo.terms'], (hashes, terms) => drainTypoKeys(typo, hashes, terms));
    const byToken = this.sorter('byToken', 2, 1);
    joinTokens(occurrences, termsByHash, byToken);
    this.columns(['docname.targets', 'artist-terms.targets'], (docName, artists) => splitTermIds(byToken, nameTokens, docName, artists));
    return dictionary;
  }

  /** docartist.*, postings.* and keys.*. */
  private readRanks(termCount: number): void {
    const postings = this.sorter('postings', 2, 1);
    const keys = this.sorter('keys', 3, 1);
    const inputs = {
      ordinals: this.inputs.ordinals,
      credits: this.inputs.credits,
      docName: this.lists('docname.offsets', 'docname.targets'),
      artistTerms: this.lists('artist-terms.offsets', 'artist-terms.targets'),
    };
    this.columns(['docartist.offsets', 'docartist.targets'], (docArtistOffsets, docArtistTargets) =>
      readRanks(inputs, { docArtistOffsets, docArtistTargets, postings, keys }),
    );
    this.columns(['postings.offsets', 'postings'], (offsets, ranks) => drainPostings(postings, termCount, offsets, ranks));
    this.columns(['keys.hashes', 'keys.ranks', 'keys.checks'], (hashes, ranks, checks) => drainWordSetKeys(keys, hashes, ranks, checks));
  }
}
