import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import { Catalog } from '../catalog/catalog.js';
import { CatalogHolder } from './catalog-holder.js';
import { eventLogger } from './event-log.js';
import { DEFAULT_HTTP, type HttpOptions } from './http-options.js';
import { Metrics } from './metrics.js';
import { createHandler, type HandlerOptions } from './request-handler.js';
import { flushFastResponses, serveFast } from '../http/fast-connection.js';
import type { HandlerState } from './server-routes.js';
import { SnapshotReloader, type ReloadResult } from './snapshot-reloader.js';

export { createHandler } from './request-handler.js';

export interface ServeOptions extends HandlerOptions {
  /** A snapshot directory, or a dist directory (its `current` snapshot, followed on reload). */
  readonly snapshot: string;
  readonly port?: number;
  readonly host?: string;
  /** Reload when the dist directory's `current` pointer changes (besides on SIGHUP). */
  readonly watch?: boolean;
  /** Where reload and shutdown events are logged as JSON lines (default stderr). */
  readonly events?: NodeJS.WritableStream;
  /** Send the snapshots' pre-rendered views (default true); false renders every response. */
  readonly views?: boolean;
  /**
   * Under positioned reads, the file-backed bytes the process may keep resident before the
   * mapped search indexes drop their pages (default SEARCH_PAGES_BUDGET).
   */
  readonly searchPagesBytes?: number;
  /**
   * Warm a reloaded snapshot up before it is swapped in (warm-up.ts, default true). The first
   * snapshot is not: warming it while the first connections arrive held them back (measured).
   */
  readonly warmUp?: boolean;
  /**
   * A server already listening (created with allowHalfOpen) whose new connections this server
   * takes from now on, instead of listening itself: the port a replica held while it waited for
   * its first build (awaiting-snapshot.ts), handed over without a moment of refused connections.
   */
  readonly listening?: net.Server;
  /**
   * Snapshot directories verified already in this process (a replica verifies a build before it
   * names it): a reload swaps them in without reading every page a second time.
   */
  readonly verified?: (snapshotDir: string) => boolean;
}

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  /** The catalog in service now (it changes on a swap). */
  readonly catalog: Catalog;
  readonly holder: CatalogHolder;
  /** Re-reads the `current` pointer, verifies and swaps in what it names. */
  reload(): Promise<ReloadResult>;
  /** Stops accepting, lets in-flight requests finish (up to the shutdown timeout), closes the snapshot. */
  shutdown(): Promise<void>;
  /** Immediate close (tests). */
  close(): Promise<void>;
}

/** How often the server looks at its file-backed resident pages, and the most it lets them reach. */
const SEARCH_PAGES_CHECK_MS = 200;
const SEARCH_PAGES_BUDGET = 256 * 2 ** 20;

/** Resident file-backed (and shared) bytes of this process; Infinity where /proc cannot tell. */
function fileBackedResidentBytes(): number {
  try {
    const status = readFileSync('/proc/self/status', 'latin1');
    const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return (kib('RssFile') + kib('RssShmem')) * 1024;
  } catch {
    return Infinity;
  }
}

const UNANSWERED = Symbol('unanswered requests');
type CountedSocket = Socket & { [UNANSWERED]?: number };

/** What a server holds besides its sockets: the snapshot in service, reloads, counts. */
interface ServerCore {
  readonly http: HttpOptions;
  readonly holder: CatalogHolder;
  readonly state: HandlerState;
  readonly reloader: SnapshotReloader;
  readonly logEvent: ReturnType<typeof eventLogger>;
  /** Stops what runs on a timer. */
  readonly stopTimers: () => void;
}

/** Opens the snapshot, the reloader and the search pages' budget check. */
function openCore(options: ServeOptions): ServerCore {
  const http: HttpOptions = { ...DEFAULT_HTTP, ...options.http };
  const catalogOptions = { views: options.views ?? true };
  const holder = new CatalogHolder(Catalog.open(options.snapshot, catalogOptions));
  const logEvent = eventLogger(options.events);
  const state: HandlerState = { holder, metrics: new Metrics(), draining: false, reloader: null };
  const reloader = new SnapshotReloader(options.snapshot, holder, logEvent, catalogOptions, options.warmUp ?? true, options.verified);
  state.reloader = reloader;
  if (options.watch) reloader.watch();
  // Under positioned reads the search indexes are mapped (Snapshot.releaseSearchPages): once the
  // process's file-backed pages pass a budget, the search pages leave it, so its RSS stays near
  // the budget whatever share of the indexes the searches have read.
  const searchPagesBytes = options.searchPagesBytes ?? SEARCH_PAGES_BUDGET;
  const releaseSearchPages = setInterval(() => {
    const snapshot = holder.current.snapshot;
    if (snapshot.mapsSearch && fileBackedResidentBytes() > searchPagesBytes) snapshot.releaseSearchPages();
  }, SEARCH_PAGES_CHECK_MS);
  releaseSearchPages.unref();
  return { http, holder, state, reloader, logEvent, stopTimers: () => clearInterval(releaseSearchPages) };
}

/**
 * The request listener, counting each connection's unanswered requests for a shutdown that cuts
 * no response short. Counted on the socket by the listener and by the handler's `responded` (no
 * listener per response: that cost about 3% of a song-by-id request under load, measured).
 */
function countingListener(options: ServeOptions, { holder, state }: ServerCore): (req: IncomingMessage, res: ServerResponse) => void {
  const handler = createHandler(holder, options, state);
  state.responded = (req) => {
    const socket = req.socket as CountedSocket;
    const left = (socket[UNANSWERED] ?? 1) - 1;
    socket[UNANSWERED] = left;
    if (state.draining && left === 0) {
      flushFastResponses();
      socket.end();
    }
  };
  return (req, res) => {
    const socket = req.socket as CountedSocket;
    socket[UNANSWERED] = (socket[UNANSWERED] ?? 0) + 1;
    handler(req, res);
  };
}

/** The first of node:http's two request timeouts: when it answers 408 to a request not yet received (0 is no limit). */
function firstRequestTimeoutMs(http: HttpOptions): number {
  return http.requestTimeoutMs > 0 ? Math.min(http.headersTimeoutMs, http.requestTimeoutMs) : http.headersTimeoutMs;
}

/** node:http's server with the flags' limits (it listens itself only without the fast core). */
function nodeServer(http: HttpOptions, listener: (req: IncomingMessage, res: ServerResponse) => void): Server {
  // node:http enforces the headers and request timeouts on a timer (30 s by default): check often
  // enough that a short timeout means what it says.
  const connectionsCheckingInterval = Math.max(100, Math.min(30_000, Math.floor(firstRequestTimeoutMs(http) / 4)));
  const server = createServer({ connectionsCheckingInterval }, listener);
  server.keepAliveTimeout = http.keepAliveTimeoutMs;
  server.headersTimeout = http.headersTimeoutMs;
  server.requestTimeout = http.requestTimeoutMs;
  // A socket that moves no byte for this long is cut; node:http arms it while a request is read
  // and its response written (its keep-alive timer takes over between requests), so it is the
  // write-stall limit of a client that stops reading.
  server.timeout = http.writeStallTimeoutMs;
  // After a client's FIN, node:http answers the requests it has read and then ends the
  // connection (with this off it ends its side at once, and an answer still being made is lost).
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  return server;
}

/**
 * The server that listens: node:http's, or with the fast core a node:net server that serves
 * simple requests itself and hands each connection to node:http (which then never listens) at
 * its first other request.
 */
function listeningServer(
  core: ServerCore,
  server: Server,
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  track: (socket: Socket) => void,
  adopted?: net.Server,
): net.Server {
  const { http, state } = core;
  if (!http.fastCore) {
    if (!adopted) return server;
    adopted.on('connection', (socket: Socket) => server.emit('connection', socket));
    server.emit('listening');
    return adopted;
  }
  const stats = (state.fastCore = { answered: 0, handedOver: 0 });
  // Half-open as node:http's own listener is: a client's FIN does not end the server's side.
  const listening = adopted ?? net.createServer({ allowHalfOpen: true });
  listening.on('connection', (socket: Socket) => {
    track(socket);
    serveFast(socket, {
      http: server,
      listener,
      keepAliveTimeoutMs: http.keepAliveTimeoutMs,
      headersTimeoutMs: firstRequestTimeoutMs(http),
      writeStallTimeoutMs: http.writeStallTimeoutMs,
      stats,
    });
  });
  // node:http arms its headers and request timeouts (and its list of connections) when it starts
  // listening; the fast core's node:http never listens, so it is told it did.
  server.emit('listening');
  return listening;
}

/** Opens the snapshot and listens. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const core = openCore(options);
  const listener = countingListener(options, core);
  const server = nodeServer(core.http, listener);
  // Every connection, whichever core accepted it.
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    if (sockets.has(socket)) return;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  server.on('connection', track);
  const listening = listeningServer(core, server, listener, track, options.listening);
  if (!listening.listening)
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(options.port ?? 8080, options.host ?? '127.0.0.1', () => resolve());
    });
  return runningServer(core, server, listening, sockets);
}

/** The running server's face: its URL, reload, and the two ways to stop. */
function runningServer(core: ServerCore, server: Server, listening: net.Server, sockets: Set<Socket>): RunningServer {
  const { http, holder, state, reloader, logEvent } = core;
  const address = listening.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let stopping: Promise<void> | null = null;
  const finishClose = () => {
    if (listening !== server) server.close();
    core.stopTimers();
    reloader.close();
    holder.close();
  };
  return {
    server,
    holder,
    get catalog() {
      return holder.current;
    },
    url: `http://${host}:${address.port}`,
    reload: () => reloader.reload(),
    shutdown() {
      stopping ??= new Promise<void>((resolve) => {
        state.draining = true;
        let unsent = 0;
        for (const socket of sockets) if (socket.writableLength > 0) unsent++;
        logEvent({ level: 'info', event: 'shutdown', inFlight: holder.currentLease.inFlight, connections: sockets.size, connectionsWithUnsentBytes: unsent });
        const force = setTimeout(() => {
          for (const socket of sockets) socket.destroy();
        }, http.shutdownTimeoutMs);
        force.unref();
        // Stop accepting. Not http.Server.close(): it destroys "idle" connections at once, and a
        // connection whose last response is still in its write buffer counts as idle, so a slow
        // client would get a cut body. Instead each connection is ended (after its buffered
        // bytes) once it has no request left.
        net.Server.prototype.close.call(listening, () => {
          clearTimeout(force);
          finishClose();
          resolve();
        });
        flushFastResponses();
        for (const socket of sockets) if (!(socket as CountedSocket)[UNANSWERED]) socket.end();
      });
      return stopping;
    },
    close() {
      stopping ??= new Promise<void>((resolve) => {
        listening.close(() => {
          finishClose();
          resolve();
        });
        for (const socket of sockets) socket.destroy();
      });
      return stopping;
    },
  };
}
