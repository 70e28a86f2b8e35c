import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import FlexSearch from 'flexsearch';
import { pack } from 'msgpackr';
import { searchText, SEARCH_INDEX_OPTIONS } from '../index-format/search-text.js';

export type SearchTexts = Record<'songs' | 'albums' | 'artists' | 'playlists', string[]>;
export type SearchExports = Record<keyof SearchTexts, Buffer>;

/**
 * Builds one FlexSearch index per type (ids are ordinals, text already joined: "title artists")
 * and returns each export as msgpack: an array of [key, data] pairs in export order.
 */
export async function buildSearchExports(texts: SearchTexts): Promise<SearchExports> {
  const out = {} as SearchExports;
  for (const type of Object.keys(texts) as (keyof SearchTexts)[]) {
    const index = new FlexSearch.Index({
      tokenize: SEARCH_INDEX_OPTIONS.tokenize,
      resolution: SEARCH_INDEX_OPTIONS.resolution,
      encoder: SEARCH_INDEX_OPTIONS.encoder,
    });
    texts[type].forEach((text, ordinal) => {
      const normal = searchText(text);
      if (normal.length > 0) index.add(ordinal, normal);
    });
    const chunks: [string, string][] = [];
    await index.export((key: string, data: string) => {
      chunks.push([String(key), data]);
    });
    out[type] = pack(chunks);
  }
  return out;
}

const workerFile = fileURLToPath(new URL('./search-worker.js', import.meta.url));

/**
 * Starts the search build on a worker thread (the compiler's other work goes on in parallel on
 * the second core). Falls back to this thread when the compiled worker file is not there
 * (running from TypeScript sources).
 */
export function startSearchBuild(texts: SearchTexts): Promise<SearchExports> {
  if (!existsSync(workerFile)) return buildSearchExports(texts);
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerFile, { workerData: texts });
    worker.once('message', (result: Record<string, Uint8Array>) => {
      const out = {} as SearchExports;
      for (const [type, bytes] of Object.entries(result)) out[type as keyof SearchTexts] = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      resolve(out);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`search worker exited with code ${code}`));
    });
  });
}
