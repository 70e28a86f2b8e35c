import { buildOrdersBeside } from './orders-beside.js';
import { serveWorkerJob } from './worker-job.js';

/** Worker-thread entry: an entity type's orders before release dates (orders-beside.ts). */
await serveWorkerJob(buildOrdersBeside);
