import cluster from 'node:cluster';
import type { IncomingMessage } from 'node:http';
import type { CatalogHolder } from './catalog-holder.js';
import { workerMetrics } from './cluster-metrics.js';
import type { Handler } from './context.js';
import type { FastCoreStats } from '../http/fast-connection.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { Metrics } from './metrics.js';
import type { Router } from './router.js';
import type { SnapshotReloader } from './snapshot-reloader.js';
import { JSON_TYPE, TextBody } from './text-body.js';

/** What the request listener shares with the server around it. */
export interface HandlerState {
  readonly holder: CatalogHolder;
  readonly metrics: Metrics;
  /** Set once shutdown begins: /readyz answers 503 and every response closes its connection. */
  draining: boolean;
  reloader: SnapshotReloader | null;
  /** Called once each request's response is written (the server counts unanswered requests per connection). */
  responded?: (req: IncomingMessage) => void;
  /** The fast HTTP core's counts, when it serves. */
  fastCore?: FastCoreStats;
}

const METRICS_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** `/readyz` and `/metrics`: the routes that read the server's own state rather than the catalog's. */
export function registerServerRoutes(router: Router<Handler>, state: HandlerState, limiter: RateLimiter | null, worker: string | undefined): void {
  router.add('/readyz', 'v1', ({ cat }) => {
    if (state.draining) return new TextBody(JSON.stringify({ status: 'draining', buildId: cat.buildId }), JSON_TYPE, 503);
    return { status: 'ready', buildId: cat.buildId };
  });
  const renderMetrics = () =>
    state.metrics.render({
      holder: state.holder,
      swaps: state.reloader?.counts,
      fastCore: state.fastCore,
      rateLimited: limiter ? () => limiter.limited : undefined,
      worker,
    });
  // One of several workers: a scrape gets every worker's series, merged by the primary.
  const clusterMetrics = worker !== undefined && cluster.isWorker ? workerMetrics(renderMetrics) : null;
  router.add('/metrics', 'v1', () =>
    clusterMetrics ? clusterMetrics().then((text) => new TextBody(text, METRICS_TYPE)) : new TextBody(renderMetrics(), METRICS_TYPE),
  );
}
