import { statSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE } from '../index-format/manifest.js';
import { coldReadStats } from '../index-format/shards/cold-reads.js';
import type { CatalogHolder } from './catalog-holder.js';
import type { FastCoreStats } from '../http/fast-connection.js';

/** Latency histogram bounds, seconds. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

interface RouteSeries {
  readonly byStatus: Map<number, number>;
  readonly buckets: Float64Array;
  count: number;
  sum: number;
  bytes: number;
}

/** Gauges and counters read when /metrics is asked for, from whoever owns them. */
export interface MetricSources {
  readonly holder: CatalogHolder;
  readonly swaps?: { swapped: number; unchanged: number; refused: number };
  readonly rateLimited?: () => number;
  readonly fastCore?: FastCoreStats;
  readonly worker?: string;
}

const escapeLabel = (v: string): string => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/**
 * Request counters and a latency histogram per route (the route's pattern, so ids do not blow up
 * the label set), rendered with snapshot and process gauges in the Prometheus text format.
 */
export class Metrics {
  private readonly routes = new Map<string, RouteSeries>();
  private readonly started = Date.now();

  observe(route: string, status: number, seconds: number, bytes: number): void {
    let s = this.routes.get(route);
    if (!s) this.routes.set(route, (s = { byStatus: new Map(), buckets: new Float64Array(LATENCY_BUCKETS.length), count: 0, sum: 0, bytes: 0 }));
    s.byStatus.set(status, (s.byStatus.get(status) ?? 0) + 1);
    s.count++;
    s.sum += seconds;
    s.bytes += bytes;
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) if (seconds <= LATENCY_BUCKETS[i]) s.buckets[i]++;
  }

  render(src: MetricSources): string {
    const out = new Exposition(src.worker);
    this.renderRequests(out);
    renderSnapshot(out, src);
    renderServer(out, src, this.started);
    return out.text();
  }

  /** Per route: requests by status, the latency histogram, the body bytes. */
  private renderRequests({ labels, metric }: Exposition): void {
    const routes = [...this.routes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    metric(
      'omm_http_requests_total',
      'counter',
      'Requests answered, by route pattern and status.',
      routes.flatMap(([route, s]) =>
        [...s.byStatus.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([status, n]) => `omm_http_requests_total${labels(`route="${escapeLabel(route)}"`, `status="${status}"`)} ${n}`),
      ),
    );
    metric(
      'omm_http_request_duration_seconds',
      'histogram',
      'Time from request to response written, by route pattern.',
      routes.flatMap(([route, s]) => {
        const r = `route="${escapeLabel(route)}"`;
        return [
          ...LATENCY_BUCKETS.map((le, i) => `omm_http_request_duration_seconds_bucket${labels(r, `le="${le}"`)} ${s.buckets[i]}`),
          `omm_http_request_duration_seconds_bucket${labels(r, 'le="+Inf"')} ${s.count}`,
          `omm_http_request_duration_seconds_sum${labels(r)} ${s.sum}`,
          `omm_http_request_duration_seconds_count${labels(r)} ${s.count}`,
        ];
      }),
    );
    metric(
      'omm_http_response_bytes_total',
      'counter',
      'Response body bytes sent, by route pattern.',
      routes.map(([route, s]) => `omm_http_response_bytes_total${labels(`route="${escapeLabel(route)}"`)} ${s.bytes}`),
    );
  }
}

/** Prometheus text lines, each series labelled with the worker when there are several. */
class Exposition {
  private readonly out: string[] = [];
  constructor(private readonly worker: string | undefined) {}

  readonly labels = (...parts: string[]): string => {
    const all = [this.worker === undefined ? '' : `worker="${escapeLabel(this.worker)}"`, ...parts].filter(Boolean);
    return all.length ? `{${all.join(',')}}` : '';
  };

  readonly metric = (name: string, type: string, help: string, lines: string[]): void => {
    this.out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...lines);
  };

  text(): string {
    return `${this.out.join('\n')}\n`;
  }
}

/** The snapshot in service: its build, age, time in service, shards and mapped bytes. */
function renderSnapshot({ labels, metric }: Exposition, src: MetricSources): void {
  const lease = src.holder.currentLease;
  const snapshot = lease.catalog.snapshot;
  let compiledAt = NaN;
  try {
    compiledAt = statSync(join(snapshot.dir, MANIFEST_FILE)).mtimeMs / 1000;
  } catch {
    // the directory was pruned under us; the age is unknown
  }
  const shards = snapshot.openedShards();
  const mapped = shards.reduce((sum, s) => sum + (s.file.mode === 'mmap' ? s.file.size : 0), 0);
  metric('omm_snapshot_info', 'gauge', 'The snapshot in service (value 1), by build id.', [
    `omm_snapshot_info${labels(`build_id="${escapeLabel(lease.catalog.buildId)}"`)} 1`,
  ]);
  metric('omm_snapshot_age_seconds', 'gauge', 'Seconds since the snapshot in service was written.', [
    `omm_snapshot_age_seconds${labels()} ${Number.isNaN(compiledAt) ? 'NaN' : (Date.now() / 1000 - compiledAt).toFixed(3)}`,
  ]);
  metric('omm_snapshot_in_service_seconds', 'gauge', 'Seconds since the snapshot in service was put in service.', [
    `omm_snapshot_in_service_seconds${labels()} ${((Date.now() - lease.since) / 1000).toFixed(3)}`,
  ]);
  metric('omm_snapshot_open_shards', 'gauge', "Shard files read so far for the snapshot in service (a table's shards are read when it is first used).", [
    `omm_snapshot_open_shards${labels()} ${shards.length}`,
  ]);
  metric('omm_snapshot_mapped_bytes', 'gauge', 'Bytes of shard files memory-mapped for the snapshot in service.', [
    `omm_snapshot_mapped_bytes${labels()} ${mapped}`,
  ]);
  const cat = lease.catalog;
  metric('omm_snapshot_resources', 'gauge', 'Songs, albums and artists in service (taken-down ones not counted).', [
    // From the manifest's counts (less the deletes set's): no record table is opened for them.
    ...(['songs', 'albums', 'artists'] as const).map((name) => `omm_snapshot_resources${labels(`type="${name.slice(0, -1)}"`)} ${cat.counts[name] ?? 0}`),
  ]);
  metric('omm_snapshot_taken_down', 'gauge', "Songs, albums and artists the snapshot's deletes set takes out of service (omm takedown).", [
    ...(['song', 'album', 'artist'] as const).map((type) => `omm_snapshot_taken_down${labels(`type="${type}"`)} ${cat.deletes?.count(type) ?? 0}`),
  ]);
  if (snapshot.mapsSearch) {
    metric(
      'omm_search_page_releases_total',
      'counter',
      'Times the search indexes mapped under positioned reads dropped their pages from the process (since the snapshot came into service).',
      [`omm_search_page_releases_total${labels()} ${snapshot.searchPageReleases}`],
    );
  }
}

/** The server's own state: requests in flight, reloads, the fast core, the rate limit, the process. */
function renderServer({ labels, metric }: Exposition, src: MetricSources, started: number): void {
  const lease = src.holder.currentLease;
  metric('omm_in_flight_requests', 'gauge', 'Requests being answered.', [`omm_in_flight_requests${labels()} ${lease.inFlight}`]);
  if (src.swaps) {
    metric(
      'omm_snapshot_reloads_total',
      'counter',
      'Snapshot reloads by outcome.',
      (['swapped', 'unchanged', 'refused'] as const).map((o) => `omm_snapshot_reloads_total${labels(`outcome="${o}"`)} ${src.swaps![o]}`),
    );
  }
  if (src.fastCore) {
    metric(
      'omm_http_fast_core_total',
      'counter',
      'Requests the fast HTTP core answered itself, and connections it handed to node:http at their first request that was not a simple GET or HEAD.',
      [
        `omm_http_fast_core_total${labels('outcome="answered"')} ${src.fastCore.answered}`,
        `omm_http_fast_core_total${labels('outcome="handed_over"')} ${src.fastCore.handedOver}`,
      ],
    );
  }
  metric(
    'omm_cold_reads_total',
    'counter',
    'A snapshot larger than memory: requests run again once the pages they would have waited for were brought in, the rounds of fetches that took, and requests that ran out of rounds and waited.',
    [
      `omm_cold_reads_total${labels('outcome="requests"')} ${coldReadStats.requests}`,
      `omm_cold_reads_total${labels('outcome="rounds"')} ${coldReadStats.rounds}`,
      `omm_cold_reads_total${labels('outcome="waited"')} ${coldReadStats.unarmed}`,
    ],
  );
  if (src.rateLimited)
    metric('omm_rate_limited_total', 'counter', 'Requests answered 429 by the rate limit.', [`omm_rate_limited_total${labels()} ${src.rateLimited()}`]);
  const mem = process.memoryUsage();
  metric('process_resident_memory_bytes', 'gauge', 'Resident set size, mapped shard pages included.', [`process_resident_memory_bytes${labels()} ${mem.rss}`]);
  metric('nodejs_heap_used_bytes', 'gauge', 'V8 heap in use.', [`nodejs_heap_used_bytes${labels()} ${mem.heapUsed}`]);
  const cpu = process.cpuUsage();
  metric('process_cpu_seconds_total', 'counter', 'User and system CPU time.', [`process_cpu_seconds_total${labels()} ${(cpu.user + cpu.system) / 1e6}`]);
  metric('process_start_time_seconds', 'gauge', 'When the process started, seconds since the epoch.', [
    `process_start_time_seconds${labels()} ${started / 1000}`,
  ]);
}
