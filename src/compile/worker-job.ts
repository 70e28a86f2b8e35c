import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort, Worker, workerData } from 'node:worker_threads';

/** Told now and then how many rows a job has done since it was last told. */
export type RowsDone = (rows: number) => void;

/** What a job's worker posts: rows done, then its result. */
type JobMessage<Result> = { rows: number } | { result: Result };

/**
 * Runs a compile job on a worker thread, `workerFile` (beside `from`, a module's import.meta.url),
 * whose entry calls serveWorkerJob. Runs it here, with `runHere`, when the compiled worker is not
 * there (TypeScript sources under a test runner): the same job, the same result, one thread.
 */
export function runWorkerJob<Result>(
  label: string,
  workerFile: string,
  from: string,
  data: unknown,
  runHere: (onRows?: RowsDone) => Promise<Result> | Result,
  onRows?: RowsDone,
  /** Buffers inside `data` that move to the worker instead of being copied (unusable here after). */
  transfer: readonly ArrayBuffer[] = [],
): Promise<Result> {
  const file = fileURLToPath(new URL(workerFile, from));
  if (!existsSync(file)) return Promise.resolve().then(() => runHere(onRows));
  return new Promise((resolve, reject) => {
    const worker = new Worker(file, { workerData: data, transferList: [...transfer] });
    worker.on('message', (m: JobMessage<Result>) => {
      if ('rows' in m) onRows?.(m.rows);
      else resolve(m.result);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${label} worker exited with code ${code}`));
    });
  });
}

/** A worker entry: runs `job` on the data it was started with and posts its rows and result. */
export async function serveWorkerJob<Data, Result>(job: (data: Data, onRows: RowsDone) => Promise<Result> | Result): Promise<void> {
  const post = (m: JobMessage<Result>) => parentPort!.postMessage(m);
  post({ result: await job(workerData as Data, (rows) => post({ rows })) });
}

/**
 * Runs `here` on this thread while `job` runs on a worker, and waits for both whichever fails:
 * a worker must be done with its files before anyone removes them. This thread's failure is
 * thrown first.
 */
export async function besideWorker<Here, There>(job: Promise<There>, here: () => Here | Promise<Here>): Promise<[Here, There]> {
  const [mine, theirs] = await Promise.allSettled([Promise.resolve().then(here), job]);
  if (mine.status === 'rejected') throw mine.reason;
  if (theirs.status === 'rejected') throw theirs.reason;
  return [mine.value, theirs.value];
}

/** Waits for every job whichever fails (as besideWorker); their results in order, or the first failure. */
export async function allJobs<Result>(jobs: readonly Promise<Result>[]): Promise<Result[]> {
  const settled = await Promise.allSettled(jobs);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<Result>).value);
}

/** A per-row callback told of rows in batches: calls `onRow` once per row. */
export function eachRow(onRow: (() => void) | undefined): RowsDone {
  return (rows) => {
    if (onRow) for (let i = 0; i < rows; i++) onRow();
  };
}

/** Counts rows one by one and tells `onRows` in batches: `tick` per row, `flush` at the end. */
export function rowBatches(onRows: RowsDone | undefined, batch = 16_384): { tick: () => void; flush: () => void } {
  let pending = 0;
  return {
    tick: () => {
      if (++pending === batch) {
        onRows?.(pending);
        pending = 0;
      }
    },
    flush: () => {
      if (pending > 0) onRows?.(pending);
      pending = 0;
    },
  };
}
