import { serveWorkerJob } from '../worker-job.js';
import { writeSongRecords, type SongRange, type SongRecordsJob } from './song-records.js';

/** Worker-thread entry: writes one range of the songs table (song-records.ts). */
await serveWorkerJob((data: { job: SongRecordsJob; range: SongRange }, onRows) => writeSongRecords(data.job, data.range, onRows));
