import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { writeSearchIndex, type SearchDocuments } from '../index-format/search-index-writer.js';
import type { WrittenShard } from '../index-format/shard-writer.js';
import type { CatalogIndex } from './catalog-index.js';
import type { DerivedCatalog } from './derive.js';

export interface NamedSearchShard extends WrittenShard {
  readonly name: string;
}

export interface SearchBuild {
  readonly outDir: string;
  readonly buildId: string;
  readonly documents: SearchDocuments[];
}

const PLURAL: Record<string, string> = { song: 'songs', album: 'albums', artist: 'artists', playlist: 'playlists' };

/**
 * What the search shards are built from: per searchable type, names in popularity order; songs
 * and albums also by their credited artists' names. Plain data, so it can cross to a worker.
 */
export function searchBuild(outDir: string, buildId: string, index: CatalogIndex, derived: DerivedCatalog): SearchBuild {
  const credits = (relation: string) => {
    const adj = derived.relations.get(relation)!;
    return { offsets: adj.offsets, targets: adj.targets, artistNames: index.artists.names };
  };
  const popularity = (orders: DerivedCatalog['songs']) => orders.orders.get('popularity')!;
  return {
    outDir,
    buildId,
    documents: [
      { type: 'song', ordinals: popularity(derived.songs), names: index.songs.names, artists: credits('song.artists') },
      { type: 'album', ordinals: popularity(derived.albums), names: index.albums.names, artists: credits('album.artists') },
      { type: 'artist', ordinals: popularity(derived.artists), names: index.artists.names },
      { type: 'playlist', ordinals: popularity(derived.playlists), names: index.playlists.names },
    ],
  };
}

/** Writes one search shard per type (`search.songs.blob`, ...). */
export function writeSearchShards(build: SearchBuild): NamedSearchShard[] {
  return build.documents.map((docs) => {
    const name = `search.${PLURAL[docs.type]}`;
    return { name, ...writeSearchIndex(join(build.outDir, `${name}.blob`), build.buildId, docs) };
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
