import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parseFilesCsv, type ParsedFiles, type ParseFilesJob } from './parse-files.js';

const workerFile = fileURLToPath(new URL('./parse-files-worker.js', import.meta.url));

/**
 * Reads files.csv on a worker thread while this one reads the other raw files. Runs here when
 * the compiled worker is not there (TypeScript sources under a test runner).
 */
export function startParseFiles(job: ParseFilesJob, onRows?: (rows: number) => void): Promise<ParsedFiles> {
  if (!existsSync(workerFile)) return parseFilesCsv(job, onRows);
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerFile, { workerData: job });
    worker.on('message', (m: { rows?: number; parsed?: ParsedFiles }) => {
      if (m.rows !== undefined) onRows?.(m.rows);
      if (m.parsed) resolve(m.parsed);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`files.csv worker exited with code ${code}`));
    });
  });
}
