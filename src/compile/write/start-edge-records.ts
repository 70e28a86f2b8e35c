import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WrittenShard } from '../../index-format/shard-writer.js';
import { writeEdgeRecordTables, type EdgeRecordsJob } from './edge-records.js';

const workerFile = fileURLToPath(new URL('./edge-records-worker.js', import.meta.url));

/**
 * Writes the files and lyrics tables on a worker thread while this one writes the others. Runs
 * here when the compiled worker is not there (TypeScript sources under a test runner).
 */
export function startEdgeRecords(job: EdgeRecordsJob, onRows?: (rows: number) => void): Promise<WrittenShard[]> {
  if (!existsSync(workerFile)) return writeEdgeRecordTables(job, onRows);
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerFile, { workerData: job });
    worker.on('message', (m: { rows?: number; shards?: WrittenShard[] }) => {
      if (m.rows !== undefined) onRows?.(m.rows);
      if (m.shards) resolve(m.shards);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`records worker exited with code ${code}`));
    });
  });
}
