import { parentPort, workerData } from 'node:worker_threads';
import { buildSearchExports, type SearchTexts } from './search-index.js';

/** Worker-thread entry: builds the search exports and posts them back. */
const result = await buildSearchExports(workerData as SearchTexts);
parentPort!.postMessage(result, Object.values(result).map((b) => b.buffer as ArrayBuffer).filter((b, i, all) => all.indexOf(b) === i));
