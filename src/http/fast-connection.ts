import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { idlePeriodMs, REQUEST_TIMEOUT_RESPONSE, WriteStall, type ConnectionLimits } from './connection-limits.js';
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
export interface FastConnectionOptions extends ConnectionLimits {
  /** node:http's server (not listening): connections it should serve are emitted to it. */
  readonly http: Server;
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void;
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

/**
 * One connection's requests, answered in order. Its edges follow node:http: a client's FIN ends
 * the connection only once every request read before it is answered (the socket is half-open
 * meanwhile); an idle connection closes KEEP_ALIVE_BUFFER_MS after the advertised keep-alive
 * timeout, but never while a response is still being written, which only a write stall cuts; a
 * new connection that sends nothing is answered 408 at the headers timeout.
 */
class FastConnection {
  private unread: Buffer | null = null;
  /** A request's listener has not ended its response yet. */
  private busy = false;
  private handedOff = false;
  private closing = false;
  /** The client's FIN has been read: answer what came before it, then end. */
  private peerEnded = false;
  private answeredAny = false;
  private readingPaused = false;
  private waitingForDrain = false;
  private readonly stall = new WriteStall();
  private readonly onData = (chunk: Buffer) => {
    this.unread = this.unread ? Buffer.concat([this.unread, chunk]) : chunk;
    // An asynchronous answer is being made: hold what arrives, read no more until it is sent.
    if (this.busy) this.pauseReading();
    else this.next();
  };
  private readonly onEnd = () => {
    this.peerEnded = true;
    if (!this.busy && !this.waitingForDrain) this.next();
  };
  private readonly onTimeout = () => this.timedOut();
  private readonly onError = () => this.socket.destroy();
  private readonly onDrain = () => {
    this.waitingForDrain = false;
    this.next();
  };

  constructor(
    private readonly socket: Socket,
    private readonly options: FastConnectionOptions,
  ) {}

  start(): void {
    this.socket.setNoDelay(true);
    this.socket.on('data', this.onData);
    this.socket.on('end', this.onEnd);
    this.socket.on('error', this.onError);
    this.socket.on('timeout', this.onTimeout);
    this.socket.setTimeout(this.options.headersTimeoutMs);
  }

  /**
   * The connection's timer fired (nothing moved for a period): wait for an answer being made,
   * time a response still being written as a write stall, close an idle connection, and answer
   * 408 to one that never sent a request, as node:http does.
   */
  private timedOut(): void {
    const socket = this.socket;
    const period = this.answeredAny ? idlePeriodMs(this.options) : this.options.headersTimeoutMs;
    if (this.busy) {
      socket.setTimeout(period);
      return;
    }
    if (socket.writableLength > 0) {
      if (!this.stall.exceeded(socket, Date.now(), period, this.options.writeStallTimeoutMs)) {
        socket.setTimeout(period);
        return;
      }
    } else if (!this.answeredAny && !this.closing && !this.peerEnded && socket.writable) {
      socket.write(REQUEST_TIMEOUT_RESPONSE);
    }
    socket.destroy();
  }

  private pauseReading(): void {
    if (this.readingPaused) return;
    this.readingPaused = true;
    this.socket.pause();
  }

  private resumeReading(): void {
    if (!this.readingPaused) return;
    this.readingPaused = false;
    this.socket.resume();
  }

  /** Answers complete simple requests in order, one at a time; hands the rest to node:http. */
  private next(): void {
    while (!this.busy && !this.handedOff && !this.closing) {
      if (!this.unread) {
        if (this.peerEnded) {
          // Every request before the FIN is answered: end after the last response.
          this.closing = true;
          batch.endAfter(this.socket);
        } else this.resumeReading();
        return;
      }
      if (this.socket.writableNeedDrain) {
        // The client is not reading: read no more requests until it does.
        this.pauseReading();
        this.waitingForDrain = true;
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
    if (!this.answeredAny) {
      // From the first request on, the connection's timer is its keep-alive (idle) period.
      this.answeredAny = true;
      this.socket.setTimeout(idlePeriodMs(this.options));
    }
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

  /**
   * node:http takes the connection over, the unread bytes put back in front of what comes next.
   * After the client's FIN (the socket has emitted 'end' already, and a stream takes nothing
   * back after its end) node:http is given the bytes and the end as the events it listens to.
   */
  private handOff(): void {
    this.handedOff = true;
    this.options.stats.handedOver++;
    const socket = this.socket;
    socket.removeListener('data', this.onData);
    socket.removeListener('end', this.onEnd);
    socket.removeListener('timeout', this.onTimeout);
    socket.removeListener('error', this.onError);
    socket.setTimeout(0);
    // The responses queued for this connection go before anything node:http writes.
    batch.flush();
    const unread = this.unread;
    this.unread = null;
    if (this.peerEnded) {
      this.options.http.emit('connection', socket);
      if (unread) socket.emit('data', unread);
      socket.emit('end');
      return;
    }
    if (unread) socket.unshift(unread);
    this.options.http.emit('connection', socket);
    this.resumeReading();
  }
}
