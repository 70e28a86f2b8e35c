import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WrittenShard } from '../index-format/shard-writer.js';
import { buildSearchIndex, type SearchDocumentFiles } from './search-build/index.js';
import { SpillDir } from './spill/spill-dir.js';

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

/** Writes one search shard per type (`search.songs.blob`, ...). */
export function writeSearchShards(build: SearchBuild): NamedSearchShard[] {
  const spill = SpillDir.attach(build.spillDir, 'search-');
  return build.documents.map((docs) => {
    const name = `search.${PLURAL[docs.type]}`;
    return { name, ...buildSearchIndex(join(build.outDir, `${name}.blob`), build.buildId, docs, spill, build.budgetBytes) };
  });
}

const workerFile = fileURLToPath(new URL('./search-worker.js', import.meta.url));

/**
 * Builds the search shards on a worker thread, so the second core does it while this thread
 * writes the records. Runs on this thread when the compiled worker is not there (TypeScript
 * sources under a test runner).
 */
export function startSearchShards(build: SearchBuild): Promise<NamedSearchShard[]> {
  if (!existsSync(workerFile)) return Promise.resolve().then(() => writeSearchShards(build));
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerFile, { workerData: build });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`search index worker exited with code ${code}`));
    });
  });
}
