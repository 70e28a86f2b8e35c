import { parentPort, workerData } from 'node:worker_threads';
import { writeViews, type ViewsBuild } from './write-views.js';

/** Worker-thread entry: renders one interface's views and posts the shards' descriptions back. */
parentPort!.postMessage(writeViews(workerData as ViewsBuild));
