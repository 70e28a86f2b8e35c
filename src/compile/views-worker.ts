import { rowBatches, serveWorkerJob } from './worker-job.js';
import { writeViews, type ViewsBuild } from './write-views.js';

/** Worker-thread entry: renders the views it is given (write-views.ts), telling rows as it goes. */
await serveWorkerJob((build: ViewsBuild, onRows) => {
  const rows = rowBatches(onRows);
  const shards = writeViews(build, rows.tick);
  rows.flush();
  return shards;
});
