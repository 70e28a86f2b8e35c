import { parentPort, workerData } from 'node:worker_threads';
import { parseFilesCsv, type ParseFilesJob } from './parse-files.js';

/** Worker-thread entry: reads files.csv (parse-files.ts), posting row counts and then what it found. */
const parsed = await parseFilesCsv(workerData as ParseFilesJob, (rows) => parentPort!.postMessage({ rows }));
parentPort!.postMessage({ parsed });
