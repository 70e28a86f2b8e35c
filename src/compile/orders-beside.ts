import { continueEntityOrders, startEntityOrders, type OrdersBeforeRelease } from './orders-build/entity-orders.js';
import { SpillDir } from './spill/spill-dir.js';
import { openEntity, type EntityFiles } from './validate/entity-files.js';
import { runWorkerJob } from './worker-job.js';

/** One entity type's orders, but those by release date, to build on a worker. */
export interface OrdersBesideJob {
  readonly files: EntityFiles;
  readonly spillPath: string;
  /** Names the worker's spill files, so they never clash with this thread's. */
  readonly spillPrefix: string;
  readonly budgetBytes: number;
  readonly label: string;
}

/** Ids, popularity, names and dateAdded orders and their ranks, from the entity's column files. */
export function buildOrdersBeside(job: OrdersBesideJob): OrdersBeforeRelease {
  const cols = openEntity(job.files);
  const spill = SpillDir.attach(job.spillPath, job.spillPrefix);
  const inputs = { count: cols.count, ids: cols.ids, names: cols.names, dateAdded: cols.dateAdded, popularity: cols.popularity };
  const options = { label: job.label };
  return continueEntityOrders(startEntityOrders(inputs, spill, job.budgetBytes, options), spill, job.budgetBytes, options);
}

/**
 * Starts buildOrdersBeside on a worker (orders-beside-worker.ts). The songs' orders are most of
 * the orders' work and need nothing the checks after resolving produce, only their release dates
 * do (derived from albums): so they are sorted while this thread checks references and groups
 * relations, which used to leave the other core idle.
 */
export function startOrdersBeside(job: OrdersBesideJob): Promise<OrdersBeforeRelease> {
  return runWorkerJob(`${job.label} orders`, './orders-beside-worker.js', import.meta.url, job, () => buildOrdersBeside(job));
}
