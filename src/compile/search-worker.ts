import { writeSearchShards } from './search-index.js';
import { serveWorkerJob } from './worker-job.js';

/** Worker-thread entry: writes the search shards (search-index.ts). */
await serveWorkerJob(writeSearchShards);
