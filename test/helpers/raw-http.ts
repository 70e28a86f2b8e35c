import { connect } from 'node:net';

/** What a raw client does on one connection. */
export interface Conversation {
  /** Written in turn, `gapMs` apart (`\n` is sent as CRLF unless `raw`). */
  readonly chunks: readonly (string | Buffer)[];
  readonly gapMs?: number;
  /** Send CRLF as given (chunks already hold their line ends). */
  readonly raw?: boolean;
  /** Half-close (FIN) after the last chunk. */
  readonly fin?: boolean;
  /** Read nothing until this long after connecting. */
  readonly readAfterMs?: number;
  /** Once this many bytes are read, stop reading for `stallMs`. */
  readonly stallAfterBytes?: number;
  readonly stallMs?: number;
  /** Written this long after connecting, if the connection is still open. */
  readonly later?: { readonly atMs: number; readonly chunk: string };
  /** Stop reading once this holds of every byte read so far. */
  readonly doneWhen?: (bytes: Buffer) => boolean;
  /** Give up and close this long after connecting (unless the server closed first). */
  readonly waitMs?: number;
}

export interface ConversationResult {
  readonly bytes: Buffer;
  /** The server ended or reset the connection (before `waitMs`). */
  readonly closed: boolean;
  /** When it did, in ms after connecting. */
  readonly closedAtMs: number | null;
  /** The times at which bytes arrived, in ms after connecting. */
  readonly arrivals: readonly number[];
}

const crlf = (chunk: string | Buffer, raw: boolean) =>
  typeof chunk === 'string' ? Buffer.from(raw ? chunk : chunk.replace(/\r?\n/g, '\r\n'), 'latin1') : chunk;

/** Plays `plan` on one node:net connection to `url` and collects every byte the server sends. */
export function converse(url: string, plan: Conversation): Promise<ConversationResult> {
  const { hostname, port } = new URL(url);
  const { gapMs = 0, raw = false, readAfterMs = 0, waitMs = 600 } = plan;
  return new Promise((resolve) => {
    const got: Buffer[] = [];
    const arrivals: number[] = [];
    let received = 0;
    let closedAtMs: number | null = null;
    let stalled = false;
    const started = Date.now();
    const timers: NodeJS.Timeout[] = [];
    // Half-open, so that the server's FIN is seen on its own and our FIN does not end our reading.
    const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true }, async () => {
      if (readAfterMs > 0) {
        socket.pause();
        timers.push(setTimeout(() => socket.resume(), readAfterMs));
      }
      for (const [i, chunk] of plan.chunks.entries()) {
        if (i > 0 && gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
        if (socket.destroyed) return;
        socket.write(crlf(chunk, raw));
      }
      if (plan.fin) socket.end();
    });
    socket.on('data', (chunk: Buffer) => {
      got.push(chunk);
      arrivals.push(Date.now() - started);
      received += chunk.length;
      if (plan.doneWhen?.(Buffer.concat(got))) finish();
      if (!stalled && plan.stallAfterBytes !== undefined && received >= plan.stallAfterBytes) {
        stalled = true;
        socket.pause();
        timers.push(setTimeout(() => socket.resume(), plan.stallMs ?? 0));
      }
    });
    const serverClosed = () => {
      closedAtMs ??= Date.now() - started;
      finish();
    };
    socket.on('end', serverClosed);
    socket.on('error', serverClosed);
    socket.on('close', serverClosed);
    if (plan.later) {
      const { atMs, chunk } = plan.later;
      timers.push(setTimeout(() => socket.destroyed || socket.writableEnded || socket.write(crlf(chunk, raw)), atMs));
    }
    timers.push(setTimeout(finish, waitMs));
    let done = false;
    function finish() {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      socket.destroy();
      resolve({ bytes: Buffer.concat(got), closed: closedAtMs !== null, closedAtMs, arrivals });
    }
  });
}

export interface RawResponse {
  readonly status: number;
  readonly head: string;
  readonly body: Buffer;
}

/** The length of a chunked body starting at `at`, or -1 when it is not all there. */
function chunkedLength(bytes: Buffer, at: number): number {
  let p = at;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', p);
    if (lineEnd < 0) return -1;
    const size = Number.parseInt(bytes.toString('latin1', p, lineEnd), 16);
    p = lineEnd + 2 + size + 2;
    if (p > bytes.length) return -1;
    if (size === 0) return p - at;
  }
}

/**
 * The responses in a byte stream, in order: `heads[i]` marks the i-th as answering HEAD (no
 * body). A response whose body is not all there ends the list with what arrived of it.
 */
export function responses(bytes: Buffer, heads: readonly boolean[] = []): RawResponse[] {
  const out: RawResponse[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at);
    if (end < 0) {
      out.push({ status: Number(bytes.toString('latin1', at + 9, at + 12)), head: bytes.toString('latin1', at), body: Buffer.alloc(0) });
      break;
    }
    const head = bytes.toString('latin1', at, end);
    const status = Number(head.slice(9, 12));
    const bodyAt = end + 4;
    let length: number;
    if (heads[out.length] || status === 204 || status === 304 || (status >= 100 && status < 200)) length = 0;
    else if (/\r\ncontent-length: *(\d+)/i.test(head)) length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)![1]);
    else if (/\r\ntransfer-encoding: *chunked/i.test(head)) length = chunkedLength(bytes, bodyAt);
    else length = bytes.length - bodyAt;
    if (length < 0 || bodyAt + length > bytes.length) length = bytes.length - bodyAt;
    out.push({ status, head, body: bytes.subarray(bodyAt, bodyAt + length) });
    at = bodyAt + length;
  }
  return out;
}

/** A response as text with what differs between two runs (the date, generated request ids) masked. */
export function maskedResponse(response: RawResponse): string {
  const head = response.head.replace(/\r\nDate: [^\r]*/gi, '\r\nDate: -').replace(/\r\nx-request-id: [^\r]*/gi, '\r\nx-request-id: -');
  return `${head}\r\n\r\n${response.body.toString('latin1')}`;
}
