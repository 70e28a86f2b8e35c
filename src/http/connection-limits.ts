import type { Socket } from 'node:net';

/**
 * node:http closes an idle keep-alive connection this long after the timeout it advertises
 * (its HTTP_SERVER_KEEP_ALIVE_TIMEOUT_BUFFER), so that a client reusing the connection just as
 * the advertised time runs out does not race the close.
 */
export const KEEP_ALIVE_BUFFER_MS = 1000;

/** node:http's answer to a connection that sent no complete request head in time. */
export const REQUEST_TIMEOUT_RESPONSE = Buffer.from('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n', 'latin1');

/** The time limits of one connection, in milliseconds (0: no limit). */
export interface ConnectionLimits {
  /** Advertised in `Keep-Alive: timeout=`; an idle connection closes KEEP_ALIVE_BUFFER_MS later. */
  readonly keepAliveTimeoutMs: number;
  /** node:http's headers timeout: a new connection that sends no request by then is answered 408. */
  readonly headersTimeoutMs: number;
  /** A response the client takes no byte of for this long is cut (node:http's `server.timeout`). */
  readonly writeStallTimeoutMs: number;
}

/** How long a connection may sit still once it has answered a request: as node:http keeps it. */
export function idlePeriodMs(limits: ConnectionLimits): number {
  return limits.keepAliveTimeoutMs > 0 ? limits.keepAliveTimeoutMs + KEEP_ALIVE_BUFFER_MS : limits.writeStallTimeoutMs;
}

/**
 * Tells a write stall from a slow reader. Called each time a connection's timer fires while
 * response bytes are still unsent: the bytes handed to the kernel so far (and those waiting in
 * libuv's queue) are compared with the last call, and the stall is timed from the first period
 * in which neither moved. Anything the client reads restarts it.
 */
export class WriteStall {
  private written = -1;
  private queued = -1;
  private since = 0;

  /** True once nothing has moved for `limitMs` (never when `limitMs` is 0). */
  exceeded(socket: Socket, now: number, periodMs: number, limitMs: number): boolean {
    const written = socket.bytesWritten ?? 0;
    const queued = (socket as unknown as { _handle?: { writeQueueSize?: number } })._handle?.writeQueueSize ?? 0;
    if (written !== this.written || queued !== this.queued) {
      this.written = written;
      this.queued = queued;
      // The period that just ended is the first in which nothing moved.
      this.since = now - periodMs;
    }
    return limitMs > 0 && now - this.since >= limitMs;
  }
}
