import { join } from 'node:path';
import type { WrittenShard } from '../index-format/shards/shard-writer.js';
import { buildSearchIndex, type SearchDocumentFiles } from './search-build/index.js';
import { writeFirstPages } from './search-build/first-pages.js';
import { openSearchInputs } from './search-build/inputs.js';
import { searchedNames } from './search-build/phrase-pages.js';
import { ExternalSorter } from '../sort/external-sort.js';
import { SpillDir } from './spill/spill-dir.js';
import { runWorkerJob } from './worker-job.js';

export type { SearchDocumentFiles } from './search-build/index.js';

export interface NamedSearchShard extends WrittenShard {
  readonly name: string;
}

/**
 * What the search shards are built from: per searchable type, column files (names in
 * popularity order; songs and albums also their credited artists' names). Plain data, so it can
 * cross to a worker.
 */
export interface SearchBuild {
  readonly outDir: string;
  readonly buildId: string;
  /** Path of the compile's SpillDir: the build works in it under the prefix `search-`. */
  readonly spillDir: string;
  /** Memory for the whole search build; the types are built one after another, each with all of it. */
  readonly budgetBytes: number;
  readonly documents: readonly SearchDocumentFiles[];
}

const PLURAL: Record<string, string> = { song: 'songs', album: 'albums', artist: 'artists', playlist: 'playlists' };

/**
 * Writes one search shard per type (`search.songs.blob`, ...), each followed by the first pages
 * of its costly one-word searches (`search.songs.first-pages.blob`).
 */
export function writeSearchShards(build: SearchBuild): NamedSearchShard[] {
  const spill = SpillDir.attach(build.spillDir, 'search-');
  return build.documents.flatMap((docs) => {
    const name = `search.${PLURAL[docs.type]}`;
    const index = { name, ...buildSearchIndex(join(build.outDir, `${name}.blob`), build.buildId, docs, spill, build.budgetBytes) };
    const phrases = {
      names: searchedNames(openSearchInputs(docs)),
      sorter: () => new ExternalSorter(spill.path, spill.name('phrases'), build.budgetBytes / 2),
    };
    const {
      pages: _pages,
      phrasePages: _phrases,
      prefixPages: _prefixes,
      wordPrefixPages: _wordPrefixes,
      ...firstPages
    } = writeFirstPages(index.path, join(build.outDir, `${name}.first-pages.blob`), build.buildId, { phrases });
    return [index, { name: `${name}.first-pages`, ...firstPages }];
  });
}

/**
 * Builds the search shards on a worker thread (search-worker.ts), so the second core does it
 * while this thread derives and writes the records.
 */
export function startSearchShards(build: SearchBuild): Promise<NamedSearchShard[]> {
  return runWorkerJob('search index', './search-worker.js', import.meta.url, build, () => writeSearchShards(build));
}
