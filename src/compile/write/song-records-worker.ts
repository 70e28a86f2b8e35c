import { serveWorkerJob } from '../worker-job.js';
import { writeSongRecords } from './song-records.js';

/** Worker-thread entry: writes the songs table (song-records.ts). */
await serveWorkerJob(writeSongRecords);
