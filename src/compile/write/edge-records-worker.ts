import { parentPort, workerData } from 'node:worker_threads';
import { writeEdgeRecordTables, type EdgeRecordsJob } from './edge-records.js';

/** Worker-thread entry: writes the files and lyrics tables, posting row counts and then the shards. */
const shards = await writeEdgeRecordTables(workerData as EdgeRecordsJob, (rows) => parentPort!.postMessage({ rows }));
parentPort!.postMessage({ shards });
