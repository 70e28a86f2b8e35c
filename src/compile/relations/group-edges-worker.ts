import { serveWorkerJob } from '../worker-job.js';
import { groupEdges } from './group-edges.js';

/** Worker-thread entry: groups files of edges by owner (group-edges.ts). */
await serveWorkerJob(groupEdges);
