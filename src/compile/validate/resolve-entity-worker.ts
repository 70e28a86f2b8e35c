import { serveWorkerJob } from '../worker-job.js';
import { resolveEntity } from './resolve-ids.js';

/** Worker-thread entry: resolves one entity's ids and references (resolve-ids.ts). */
await serveWorkerJob(resolveEntity);
