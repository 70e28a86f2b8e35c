import { serveWorkerJob } from './worker-job.js';
import { writeViews, type ViewsBuild } from './write-views.js';

/** Worker-thread entry: renders one interface's views (write-views.ts). */
await serveWorkerJob((build: ViewsBuild) => writeViews(build));
