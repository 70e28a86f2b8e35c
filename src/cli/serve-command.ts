import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { explorerSite } from '../explorer/index.js';
import { runPrimary } from '../serve/cluster.js';
import { eventLogger } from '../serve/event-log.js';
import type { HttpOptions } from '../serve/http-options.js';
import { DEFAULT_HTTP } from '../serve/http-options.js';
import { DEFAULT_BRANDING } from '../serve/openmusic/routes.js';
import { startServer, type RunningServer } from '../serve/server.js';
import type { Server } from 'node:net';
import { isStoreUrl } from '../object-store/index.js';
import { CliError } from './cli-error.js';
import { integer, positive } from './flag-numbers.js';
import { startReplica } from './serve-from-store.js';
import { chooseMode, nativeMmapLoadError } from '../index-format/shards/mapped-file.js';

export interface ServeFlags {
  port: string;
  host: string;
  log: boolean;
  brandName: string;
  brandEmail: string;
  brandHomepage?: string;
  workers: string;
  watch: boolean;
  cacheControl: string;
  corsOrigins: string;
  compression: boolean;
  rateLimit?: string;
  rateLimitBurst?: string;
  trustProxy: boolean;
  maxUrlLength: string;
  keepAliveTimeout: string;
  headersTimeout: string;
  requestTimeout: string;
  shutdownTimeout: string;
  writeStallTimeout: string;
  httpCore: string;
  reader: string;
  searchPages: string;
  warmUp: string;
  views: string;
  explorer: string;
  cacheDir?: string;
  poll: string;
  cacheKeep: string;
  readAhead: string;
}

const env = (name: string): string | undefined => process.env[name];
const envFlag = (name: string): boolean => env(name) === '1' || env(name) === 'true';

/** Every serve option, each with its environment variable (a flag given on the command line wins). */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a table of the serve flags, one option a line
export function addServeOptions(command: Command): Command {
  return command
    .option('-p, --port <port>', 'TCP port (env OMM_PORT)', env('OMM_PORT') ?? '8080')
    .option('--host <host>', 'address to listen on; 0.0.0.0 for every interface (env OMM_HOST)', env('OMM_HOST') ?? '127.0.0.1')
    .option('--workers <n>', 'worker processes sharing the port and the mapped snapshot; "auto" = one per CPU (env OMM_WORKERS)', env('OMM_WORKERS') ?? '1')
    .option('--watch', "swap in a new snapshot when the dist directory's current pointer changes, besides on SIGHUP (env OMM_WATCH=1)", envFlag('OMM_WATCH'))
    .option('--log', 'write one JSON line per request to stdout (env OMM_LOG=1)', envFlag('OMM_LOG'))
    .option('--cache-control <value>', 'Cache-Control of cacheable responses (env OMM_CACHE_CONTROL)', env('OMM_CACHE_CONTROL') ?? DEFAULT_HTTP.cacheControl)
    .option('--cors-origins <list>', 'comma-separated origins allowed to read responses, or * (env OMM_CORS_ORIGINS)', env('OMM_CORS_ORIGINS') ?? '*')
    .option('--no-compression', 'never gzip or brotli responses (env OMM_COMPRESSION=0)')
    .option(
      '--rate-limit <rps>',
      'requests per second per client; over it answers 429 with Retry-After (env OMM_RATE_LIMIT; default off)',
      env('OMM_RATE_LIMIT'),
    )
    .option(
      '--rate-limit-burst <n>',
      'requests a client may send at once before the rate applies (env OMM_RATE_LIMIT_BURST; default = the rate)',
      env('OMM_RATE_LIMIT_BURST'),
    )
    .option(
      '--trust-proxy',
      'identify clients by the first X-Forwarded-For address (behind a load balancer) (env OMM_TRUST_PROXY=1)',
      envFlag('OMM_TRUST_PROXY'),
    )
    .option(
      '--max-url-length <n>',
      'longer request URLs are answered 414 (env OMM_MAX_URL_LENGTH)',
      env('OMM_MAX_URL_LENGTH') ?? String(DEFAULT_HTTP.maxUrlLength),
    )
    .option(
      '--keep-alive-timeout <ms>',
      "idle keep-alive connections close after this; set it above your load balancer's (env OMM_KEEP_ALIVE_TIMEOUT)",
      env('OMM_KEEP_ALIVE_TIMEOUT') ?? String(DEFAULT_HTTP.keepAliveTimeoutMs),
    )
    .option(
      '--headers-timeout <ms>',
      'time allowed to receive request headers (env OMM_HEADERS_TIMEOUT)',
      env('OMM_HEADERS_TIMEOUT') ?? String(DEFAULT_HTTP.headersTimeoutMs),
    )
    .option(
      '--request-timeout <ms>',
      'time allowed to receive a whole request (env OMM_REQUEST_TIMEOUT)',
      env('OMM_REQUEST_TIMEOUT') ?? String(DEFAULT_HTTP.requestTimeoutMs),
    )
    .option(
      '--http-core <fast|node>',
      'fast: simple GET and HEAD requests are parsed and answered on node:net, everything else by node:http; node: node:http for every request (env OMM_HTTP_CORE)',
      env('OMM_HTTP_CORE') ?? 'fast',
    )
    .option(
      '--write-stall-timeout <ms>',
      'a response the client reads no byte of for this long is cut; 0 never (env OMM_WRITE_STALL_TIMEOUT)',
      env('OMM_WRITE_STALL_TIMEOUT') ?? String(DEFAULT_HTTP.writeStallTimeoutMs),
    )
    .option(
      '--shutdown-timeout <ms>',
      'after SIGTERM, connections still busy this long are cut (env OMM_SHUTDOWN_TIMEOUT)',
      env('OMM_SHUTDOWN_TIMEOUT') ?? String(DEFAULT_HTTP.shutdownTimeoutMs),
    )
    .option(
      '--reader <mode>',
      'how shards are read: mmap (fastest; mapped pages count in RSS), pread (0.3-0.7 of the mmap rate, lookups of many songs the slowest; a quarter of the RSS), or auto = mmap when the native addon loaded (env OMM_READER)',
      env('OMM_READER') ?? 'auto',
    )
    .option(
      '--read-ahead <auto|on|off>',
      'lookups of many keys (10 ISRCs, a list) ask for all their pages before reading any; auto = when the snapshot is larger than the memory this process may use (its cgroup limit or the machine), where its pages are mostly on disk (env OMM_READ_AHEAD)',
      env('OMM_READ_AHEAD') ?? 'auto',
    )
    .option(
      '--search-pages <MiB>',
      'under --reader pread the search indexes are mapped: once the process holds more file-backed pages than this, their pages are dropped from it (they stay in the page cache) (env OMM_SEARCH_PAGES)',
      env('OMM_SEARCH_PAGES') ?? '256',
    )
    .option(
      '--warm-up <on|off>',
      'before a reloaded snapshot is swapped in, read its search indexes, build their bitmaps and run a few searches and matches of it, so that its first requests do not pay for that (env OMM_WARM_UP)',
      env('OMM_WARM_UP') ?? 'on',
    )
    .option(
      '--views <on|off>',
      "send the snapshot's pre-rendered default views (on), or render every response (off; the same bytes, slower) (env OMM_VIEWS)",
      env('OMM_VIEWS') ?? 'on',
    )
    .option(
      '--explorer <on|off>',
      'serve the HTML explorer at / for browsers and its pages (on), or JSON alone (off) (env OMM_EXPLORER)',
      env('OMM_EXPLORER') ?? 'on',
    )
    .option(
      '--cache-dir <dir>',
      'with an s3:// source: where builds are fetched to and served from; a build cached there serves at once after a restart (env OMM_CACHE_DIR)',
      env('OMM_CACHE_DIR'),
    )
    .option('--poll <seconds>', "with an s3:// source: how often the store's pointer is asked for a new build (env OMM_POLL)", env('OMM_POLL') ?? '30')
    .option(
      '--cache-keep <n>',
      'with an s3:// source: builds kept in the cache directory, the one in service included (env OMM_CACHE_KEEP)',
      env('OMM_CACHE_KEEP') ?? '3',
    )
    .option('--brand-name <name>', 'service name in the OpenMusic info at /openmusic/ (env OMM_BRAND_NAME)', env('OMM_BRAND_NAME') ?? DEFAULT_BRANDING.name)
    .option('--brand-email <email>', 'contact address in the OpenMusic info (env OMM_BRAND_EMAIL)', env('OMM_BRAND_EMAIL') ?? DEFAULT_BRANDING.email)
    .option('--brand-homepage <url>', 'homepage in the OpenMusic info (env OMM_BRAND_HOMEPAGE)', env('OMM_BRAND_HOMEPAGE'))
    .addHelpText(
      'after',
      `
Signals: SIGHUP re-reads the dist directory's current pointer, verifies the snapshot it names and
swaps it in without dropping a request (a snapshot that fails is refused; the old one keeps
serving). SIGTERM stops accepting, finishes in-flight requests, then exits.

Examples:
  omm serve dist --port 8080
  omm serve dist --host 0.0.0.0 --workers auto --watch --log
  OMM_PORT=9000 OMM_CORS_ORIGINS=https://app.example.com omm serve dist
  omm serve dist --rate-limit 50 --rate-limit-burst 100 --trust-proxy
  omm serve s3://bucket/catalog/ --cache-dir /var/cache/omm --poll 30   # a replica (docs/operations.md)
  kill -HUP <pid>     # after 'omm compile raw -o dist' published a new snapshot`,
    );
}

/** Flags (already merged with their environment variables) -> HTTP options, each checked and named when wrong. */
export function httpOptionsFrom(flags: ServeFlags): HttpOptions {
  if (!['fast', 'node'].includes(flags.httpCore)) throw new CliError(`--http-core must be fast or node, got ${JSON.stringify(flags.httpCore)}`);
  const corsOrigins = flags.corsOrigins
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const o of corsOrigins)
    if (o !== '*' && !/^https?:\/\/[^/\s]+\/?$/.test(o))
      throw new CliError(`--cors-origins: ${JSON.stringify(o)} is not an origin like https://app.example.com (or *)`);
  return {
    cacheControl: flags.cacheControl,
    corsOrigins: corsOrigins.length ? corsOrigins : ['*'],
    compression: flags.compression && env('OMM_COMPRESSION') !== '0',
    rateLimit: flags.rateLimit === undefined ? null : positive('--rate-limit', flags.rateLimit),
    rateLimitBurst: flags.rateLimitBurst === undefined ? null : integer('--rate-limit-burst', flags.rateLimitBurst, 1),
    trustProxy: flags.trustProxy,
    maxUrlLength: integer('--max-url-length', flags.maxUrlLength, 64),
    keepAliveTimeoutMs: integer('--keep-alive-timeout', flags.keepAliveTimeout, 0),
    headersTimeoutMs: integer('--headers-timeout', flags.headersTimeout, 1),
    requestTimeoutMs: integer('--request-timeout', flags.requestTimeout, 0),
    writeStallTimeoutMs: integer('--write-stall-timeout', flags.writeStallTimeout, 0),
    shutdownTimeoutMs: integer('--shutdown-timeout', flags.shutdownTimeout, 0),
    fastCore: flags.httpCore === 'fast',
  };
}

/**
 * Serves a snapshot: one process, or with --workers N a primary that forks N of them. Each
 * server process swaps snapshots on SIGHUP and drains on SIGTERM/SIGINT.
 */
export async function serveSnapshot(
  snapshot: string,
  flags: ServeFlags,
  listening?: Server,
  verified?: (snapshotDir: string) => boolean,
): Promise<RunningServer | null> {
  if (isStoreUrl(snapshot)) {
    // A replica: the first build is fetched (the port answering 503 meanwhile), then served from
    // the cache directory, which the replica keeps following the store's pointer.
    const replica = await startReplica(snapshot, flags);
    const running = await serveSnapshot(replica.cacheDir, { ...flags, watch: true }, replica.listening, replica.verified);
    if (running) replica.serving();
    return running;
  }
  const port = integer('--port', flags.port, 0, 65535);
  if (!['auto', 'mmap', 'pread'].includes(flags.reader)) throw new CliError(`--reader must be auto, mmap or pread, got ${JSON.stringify(flags.reader)}`);
  // The snapshot reader picks its mode from OMM_READER; workers inherit it.
  if (flags.reader === 'auto') delete process.env.OMM_READER;
  else process.env.OMM_READER = flags.reader;
  if (!['auto', 'on', 'off'].includes(flags.readAhead)) throw new CliError(`--read-ahead must be auto, on or off, got ${JSON.stringify(flags.readAhead)}`);
  // The snapshot reader takes it from OMM_READ_AHEAD; workers inherit it.
  process.env.OMM_READ_AHEAD = flags.readAhead;
  if (!['on', 'off'].includes(flags.views)) throw new CliError(`--views must be on or off, got ${JSON.stringify(flags.views)}`);
  if (!['on', 'off'].includes(flags.explorer)) throw new CliError(`--explorer must be on or off, got ${JSON.stringify(flags.explorer)}`);
  if (!['on', 'off'].includes(flags.warmUp)) throw new CliError(`--warm-up must be on or off, got ${JSON.stringify(flags.warmUp)}`);
  const http = httpOptionsFrom(flags);
  const workers = flags.workers === 'auto' ? availableParallelism() : integer('--workers', flags.workers, 1, 256);
  if (workers > 1 && cluster.isPrimary) {
    await runPrimary(workers, eventLogger());
    process.exit(0);
  }
  const branding = { ...DEFAULT_BRANDING, name: flags.brandName, email: flags.brandEmail, homepage: flags.brandHomepage ?? null };
  const running = await startServer({
    snapshot,
    port,
    host: flags.host,
    log: flags.log ? process.stdout : null,
    branding,
    http,
    watch: flags.watch,
    views: flags.views === 'on',
    warmUp: flags.warmUp === 'on',
    site: flags.explorer === 'on' ? explorerSite : undefined,
    searchPagesBytes: integer('--search-pages', flags.searchPages, 0) * 2 ** 20,
    worker: cluster.isWorker ? String(cluster.worker?.id) : undefined,
    listening,
    verified,
  });
  const c = running.catalog.counts;
  if (cluster.isPrimary) {
    process.stderr.write(
      `omm: serving snapshot ${running.catalog.buildId} (${c.songs} songs, ${c.albums} albums, ${c.artists} artists) on ${running.url}/v1/ and ${running.url}/openmusic/; ${flags.explorer === 'on' ? `explorer for browsers at ${running.url}/; ` : ''}${readerLine(flags.reader)}\n`,
    );
  }
  process.on('SIGHUP', () => void running.reload());
  const stop = () => void running.shutdown().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return running;
}

export function register(program: Command): void {
  addServeOptions(
    program
      .command('serve')
      .description('serve a snapshot over HTTP: interface 1 under /v1, interface 2 (OpenMusic) under /openmusic')
      .argument(
        '<snapshot>',
        'a snapshot directory, a dist directory (serves its current snapshot and follows it on SIGHUP or --watch), or s3://bucket/prefix/ where omm publish writes (with --cache-dir)',
      ),
  ).action(async (snapshot: string, flags: ServeFlags) => {
    await serveSnapshot(snapshot, flags);
  });
}

/**
 * How the snapshot's shards are read, for the startup line: positioned reads serve a lookup of
 * ten songs at about a third of mapped reads' rate (docs/operations.md, --reader), so a server
 * that fell back to them says so, and why.
 */
function readerLine(reader: string): string {
  if (chooseMode({}) === 'mmap') return 'shards read by mmap';
  if (reader === 'pread') return 'shards read by positioned reads (--reader pread)';
  const why = nativeMmapLoadError();
  return `shards read by positioned reads: the native mmap addon did not load${why ? ` (${why})` : ''}; run npm install to build it`;
}
