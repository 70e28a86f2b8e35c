import { parentPort, workerData } from 'node:worker_threads';
import { writeSearchShards, type SearchBuild } from './search-index.js';

/** Worker-thread entry: writes the search shards and posts their descriptions back. */
parentPort!.postMessage(writeSearchShards(workerData as SearchBuild));
