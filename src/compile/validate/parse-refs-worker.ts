import { serveWorkerJob } from '../worker-job.js';
import { parseRefFiles } from './parse-refs.js';

/** Worker-thread entry: reads files of references (parse-refs.ts). */
await serveWorkerJob(parseRefFiles);
