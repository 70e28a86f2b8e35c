import { serveWorkerJob } from '../worker-job.js';
import { parseFilesCsv } from './parse-files.js';

/** Worker-thread entry: reads files.csv (parse-files.ts). */
await serveWorkerJob(parseFilesCsv);
