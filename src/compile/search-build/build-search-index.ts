import { mkdirSync, rmSync } from 'node:fs';
import { SHARD_KINDS } from '../../index-format/constants.js';
import { SEARCH_SECTIONS, searchShardMeta, type SearchSection } from '../../index-format/search-index-writer.js';
import { ShardWriter, type WrittenShard } from '../../index-format/shard-writer.js';
import { mapU32Column, NumberColumnWriter, StringColumn, StringColumnWriter } from '../spill/columns.js';
import { ExternalSorter } from '../spill/external-sort.js';
import { FixedSorter } from '../spill/fixed-sort.js';
import { SpillDir } from '../spill/spill-dir.js';
import { openSearchInputs, type SearchDocumentFiles, type SearchInputs } from './inputs.js';
import { orderNames } from './name-order.js';
import { readRanks } from './rank-pass.js';
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
const SHARE = { occurrences: 1 / 2, termStrings: 1 / 4, recentTerms: 1 / 8, termsByHash: 1 / 8, typo: 1 / 8, byToken: 1 / 4, postings: 1 / 2, keys: 1 / 2, names: 1, termHomes: 1 };
/** The recent-terms table never needs more: it only thins out repeats before a sort that drops them anyway. */
const RECENT_TERMS_MAX = 16 * 2 ** 20;

/**
 * Builds one search shard out of core: every per-document and per-token table goes through
 * sorters and column files in a directory of its own under `spill`, removed at the end, and
 * memory stays near `budgetBytes` (sorter arenas; plus a read block per spilled run while
 * merging, and a few write buffers) whatever the number of documents or terms. The bytes are
 * those writeSearchIndex (index-format) writes for the same documents. `onPhase` hears the name
 * of each phase as it ends (tokens, terms, ranks, names order, sections).
 */
export function buildSearchIndex(path: string, buildId: string, files: SearchDocumentFiles, spill: SpillDir, budgetBytes: number, onPhase: (phase: string) => void = () => undefined): WrittenShard {
  const dir = spill.file(files.type);
  mkdirSync(dir);
  try {
    return new SearchBuilder(dir, budgetBytes, openSearchInputs(files), onPhase).write(path, buildId, files.ordinals);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

class SearchBuilder {
  private readonly files: SpillDir;
  private readonly path: Record<string, string>;

  constructor(
    private readonly dir: string,
    private readonly budget: number,
    private readonly inputs: SearchInputs,
    private readonly onPhase: (phase: string) => void,
  ) {
    this.files = SpillDir.attach(dir, '');
    const names = ['names', 'docname.offsets', 'docname.targets', 'artist-terms.offsets', 'artist-terms.targets', 'terms', 'term-key-hashes', 'typo.hashes', 'typo.terms'];
    this.path = Object.fromEntries(names.map((n) => [n, this.files.file(n)]));
  }

  private sorter(name: keyof typeof SHARE, width: number, keyWords: number): FixedSorter {
    return new FixedSorter(this.dir, name, width, keyWords, this.budget * SHARE[name]);
  }

  /** Runs the passes, then writes the sections in SEARCH_SECTIONS order. */
  write(path: string, buildId: string, ordinalsPath: string): WrittenShard {
    const terms = this.termIds();
    const ranks = this.readRanks(terms.count);
    this.onPhase('ranks');
    const nameOrder = this.files.file('names.order');
    const docName = { offsets: mapU32Column(this.path['docname.offsets']), targets: mapU32Column(this.path['docname.targets']) };
    this.column(nameOrder, (order) => orderNames(StringColumn.open(this.path.names), docName, terms.count, new ExternalSorter(this.dir, 'names', this.budget * SHARE.names), order));
    this.onPhase('names order');

    const p: Record<string, string> = { ...this.path, ...ranks, 'names.order': nameOrder };
    const writer = new ShardWriter(path, SHARD_KINDS.blob, buildId);
    const body: Record<SearchSection, () => void> = {
      'terms.offsets': () => writeStringOffsets(writer, p.terms),
      'terms.bytes': () => writeFileBytes(writer, `${p.terms}.data`),
      'terms.hash': () => writeTermHash(writer, mapU32Column(p['term-key-hashes']), this.sorter('termHomes', 2, 1), this.files.file('term-homes')),
      'postings.offsets': () => writeFileBytes(writer, p['postings.offsets']),
      postings: () => writeFileBytes(writer, p.postings),
      'docname.offsets': () => writeFileBytes(writer, p['docname.offsets']),
      'docname.targets': () => writeFileBytes(writer, p['docname.targets']),
      'docartist.offsets': () => writeFileBytes(writer, p['docartist.offsets']),
      'docartist.targets': () => writeFileBytes(writer, p['docartist.targets']),
      'names.offsets': () => writeStringOffsets(writer, p.names),
      'names.bytes': () => writeFileBytes(writer, `${p.names}.data`),
      'names.order': () => writeFileBytes(writer, p['names.order']),
      'keys.hashes': () => writeFileBytes(writer, p['keys.hashes']),
      'keys.ranks': () => writeFileBytes(writer, p['keys.ranks']),
      'keys.checks': () => writeFileBytes(writer, p['keys.checks']),
      'typo.hashes': () => writeFileBytes(writer, p['typo.hashes']),
      'typo.terms': () => writeFileBytes(writer, p['typo.terms']),
      ordinals: () => writeFileBytes(writer, ordinalsPath),
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

  /** A u32 column file written by `fill`, then closed. */
  private column(path: string, fill: (writer: NumberColumnWriter) => void): void {
    const writer = new NumberColumnWriter(path, 'u32');
    fill(writer);
    writer.finish();
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
    this.column(path['docname.offsets'], (offsets) => readNames(inputs, names, offsets, sink, credited));
    names.finish();
    const nameTokens = sink.count;
    this.column(path['artist-terms.offsets'], (offsets) => {
      if (credits) readArtists(credits.artistNames, credited!, offsets, sink);
    });
    return nameTokens;
  }

  /** Term ids in byte order, then every token's term id: docname.targets and each artist's term ids. */
  private numberTerms(occurrences: FixedSorter, termStrings: ExternalSorter, nameTokens: number): TermDictionary {
    const { path } = this;
    const termsByHash = this.sorter('termsByHash', 3, 2);
    const typo = this.sorter('typo', 2, 1);
    const strings = new StringColumnWriter(path.terms);
    let dictionary!: TermDictionary;
    this.column(path['term-key-hashes'], (keyHashes) => (dictionary = numberTerms(termStrings, { strings, keyHashes, byHash: termsByHash, typo })));
    strings.finish();
    this.column(path['typo.hashes'], (hashes) => this.column(path['typo.terms'], (terms) => drainTypoKeys(typo, hashes, terms)));
    const byToken = this.sorter('byToken', 2, 1);
    joinTokens(occurrences, termsByHash, byToken);
    this.column(path['docname.targets'], (docName) => this.column(path['artist-terms.targets'], (artists) => splitTermIds(byToken, nameTokens, docName, artists)));
    return dictionary;
  }

  /** docartist.*, postings.* and keys.*: returns their files. */
  private readRanks(termCount: number): Record<string, string> {
    const { inputs, path, files } = this;
    const out = Object.fromEntries(['docartist.offsets', 'docartist.targets', 'postings.offsets', 'postings', 'keys.hashes', 'keys.ranks', 'keys.checks'].map((n) => [n, files.file(n)]));
    const lists = (offsets: string, targets: string) => ({ offsets: mapU32Column(offsets), targets: mapU32Column(targets) });
    const postings = this.sorter('postings', 2, 1);
    const keys = this.sorter('keys', 3, 1);
    this.column(out['docartist.offsets'], (docArtistOffsets) =>
      this.column(out['docartist.targets'], (docArtistTargets) =>
        readRanks(
          {
            ordinals: inputs.ordinals,
            credits: inputs.credits,
            docName: lists(path['docname.offsets'], path['docname.targets']),
            artistTerms: lists(path['artist-terms.offsets'], path['artist-terms.targets']),
          },
          { docArtistOffsets, docArtistTargets, postings, keys },
        ),
      ),
    );
    this.column(out['postings.offsets'], (offsets) => this.column(out.postings, (ranks) => drainPostings(postings, termCount, offsets, ranks)));
    this.column(out['keys.hashes'], (hashes) => this.column(out['keys.ranks'], (ranks) => this.column(out['keys.checks'], (checks) => drainWordSetKeys(keys, hashes, ranks, checks))));
    return out;
  }
}
