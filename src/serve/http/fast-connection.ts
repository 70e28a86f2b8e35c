import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { WriteBatch } from './write-batch.js';
import { byteLengthOf, TAKES_WRITABLE_BODY, type WritableBody } from './writable-body.js';
import { INVALID_HEADER_VALUE, MAX_SIMPLE_HEAD_BYTES, parseSimpleRequest, type SimpleRequest } from './simple-request.js';

const HEAD_END = Buffer.from('\r\n\r\n');
/** The responses of the current event-loop turn, written together at its end. */
const batch = new WriteBatch();

/**
 * A connection served without node:http's request and response objects, for as long as its
 * requests are simple (simple-request.ts): each is handed to the same request listener as
 * node:http's, with a request and a response that carry only what the listener uses (method,
 * url, headers, socket; writeHead and end), and the response goes out as one write with the head
 * node:http would have written for it, at the end of the event-loop turn (write-batch.ts). The first request that is not simple, or not complete in
 * what has arrived, and everything after it on the connection go to node:http (`http`), which
 * takes the socket over with the unread bytes put back: it answers malformed input, bodies,
 * slow clients and their timeouts as it always has. Measured on song by id: a bare responder
 * on node:net costs about half of a bare node:http server per request (docs/benchmarks.md).
 */
export interface FastConnectionOptions {
  /** node:http's server (not listening): connections it should serve are emitted to it. */
  readonly http: Server;
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void;
  readonly keepAliveTimeoutMs: number;
  /** Counted for /metrics. */
  readonly stats: FastCoreStats;
}

/** Requests the fast core answered, and connections it handed to node:http. */
export interface FastCoreStats {
  answered: number;
  handedOver: number;
}

/** The `Date` header's value, made once a second. */
let dateSecond = -1;
let dateValue = '';
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateValue = new Date(second * 1000).toUTCString();
  }
  return dateValue;
}

/**
 * Writes the fast core's queued responses now: before a socket is ended outside it (a drain),
 * so that its last response goes out first.
 */
export function flushFastResponses(): void {
  batch.flush();
}

export function serveFast(socket: Socket, options: FastConnectionOptions): void {
  new FastConnection(socket, options).start();
}

class FastConnection {
  private unread: Buffer | null = null;
  /** A request's listener has not ended its response yet. */
  private busy = false;
  private handedOff = false;
  private closing = false;
  private readonly onData = (chunk: Buffer) => {
    this.unread = this.unread ? Buffer.concat([this.unread, chunk]) : chunk;
    this.next();
  };
  private readonly onTimeout = () => {
    // Idle past the keep-alive timeout, as node:http closes it; a request in progress keeps it.
    if (!this.busy) this.socket.destroy();
  };
  private readonly onError = () => this.socket.destroy();
  private readonly onDrain = () => {
    this.socket.resume();
    this.next();
  };

  constructor(
    private readonly socket: Socket,
    private readonly options: FastConnectionOptions,
  ) {}

  start(): void {
    this.socket.setNoDelay(true);
    this.socket.on('data', this.onData);
    this.socket.on('error', this.onError);
    if (this.options.keepAliveTimeoutMs > 0) {
      this.socket.setTimeout(this.options.keepAliveTimeoutMs);
      this.socket.on('timeout', this.onTimeout);
    }
  }

  /** Answers complete simple requests in order, one at a time; hands the rest to node:http. */
  private next(): void {
    while (!this.busy && !this.handedOff && !this.closing && this.unread) {
      if (this.socket.writableNeedDrain) {
        // The client is not reading: read no more requests until it does.
        this.socket.pause();
        this.socket.once('drain', this.onDrain);
        return;
      }
      // Only the first request's head is decoded (a pipelined burst is not decoded again per request).
      const end = this.unread.indexOf(HEAD_END);
      const request = end < 0 || end + 4 > MAX_SIMPLE_HEAD_BYTES ? null : parseSimpleRequest(this.unread.toString('latin1', 0, end + 4));
      if (!request) {
        this.handOff();
        return;
      }
      this.unread = request.length < this.unread.length ? this.unread.subarray(request.length) : null;
      this.answer(request);
    }
  }

  private answer(request: SimpleRequest): void {
    this.busy = true;
    this.options.stats.answered++;
    const socket = this.socket;
    let status = 200;
    let headers: Record<string, string> = {};
    const req = { method: request.method, url: request.url, headers: request.headers, socket } as unknown as IncomingMessage;
    const res = {
      writeHead: (code: number, given: Record<string, string>) => {
        status = code;
        headers = given;
        return res;
      },
      [TAKES_WRITABLE_BODY]: true,
      end: (body?: string | Buffer | WritableBody) => {
        this.write(status, headers, request.method === 'HEAD' ? undefined : body);
        this.busy = false;
        // A response ended later (an asynchronous handler) lets the next request go.
        if (!ending) this.next();
        return res;
      },
    } as unknown as ServerResponse;
    let ending = true;
    try {
      this.options.listener(req, res);
    } catch {
      // The listener answers its own errors; one escaping it leaves no response to wait for.
      socket.destroy();
    }
    ending = false;
  }

  /** The head node:http would write for these headers (keep-alive or close), then the body, in one write. */
  private write(status: number, headers: Record<string, string>, body: string | Buffer | WritableBody | undefined): void {
    let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\n`;
    let close = false;
    for (const name in headers) {
      const value = headers[name];
      if (INVALID_HEADER_VALUE.test(value)) throw new TypeError(`invalid character in header ${name}`);
      head += `${name}: ${value}\r\n`;
      if (name === 'connection' && value.toLowerCase() === 'close') close = true;
    }
    head += `Date: ${httpDate()}\r\n`;
    if (!Object.hasOwn(headers, 'connection')) {
      const seconds = Math.floor(this.options.keepAliveTimeoutMs / 1000);
      head += seconds > 0 ? `Connection: keep-alive\r\nKeep-Alive: timeout=${seconds}\r\n` : 'Connection: keep-alive\r\n';
    }
    head += '\r\n';
    // One buffer for head and body, one write, queued with the turn's other responses (write-batch.ts);
    // a WritableBody is laid into it, with no buffer of its own.
    const bodyBytes = body === undefined ? 0 : byteLengthOf(body);
    const bytes = batch.room(head.length + bodyBytes);
    bytes.write(head, 0, 'latin1');
    if (typeof body === 'string') bytes.write(body, head.length, 'utf8');
    else if (Buffer.isBuffer(body)) bytes.set(body, head.length);
    else if (body !== undefined) body.writeInto(bytes, head.length);
    if (close) this.closing = true;
    batch.queue(this.socket, bytes, close);
  }

  /** node:http takes the connection over, the unread bytes put back in front of what comes next. */
  private handOff(): void {
    this.handedOff = true;
    this.options.stats.handedOver++;
    const socket = this.socket;
    socket.removeListener('data', this.onData);
    socket.removeListener('timeout', this.onTimeout);
    socket.removeListener('error', this.onError);
    socket.setTimeout(0);
    // The responses queued for this connection go before anything node:http writes.
    batch.flush();
    if (this.unread) socket.unshift(this.unread);
    this.unread = null;
    this.options.http.emit('connection', socket);
  }
}
