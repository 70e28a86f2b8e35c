import { serveWorkerJob } from '../worker-job.js';
import { writeEdgeRecordTables } from './edge-records.js';

/** Worker-thread entry: writes the files and lyrics tables (edge-records.ts). */
await serveWorkerJob(writeEdgeRecordTables);
