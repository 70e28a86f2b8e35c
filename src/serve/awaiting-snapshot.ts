import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { ApiError } from './api-error.js';
import { errorResponse } from './error-response.js';
import { SAFE_REQUEST_ID } from './request-handler.js';

/** What the process is waiting for, as /readyz tells it. */
export type WaitingStatus = () => { readonly state: string; readonly detail: string };

export interface AwaitingSnapshot {
  readonly url: string;
  /**
   * Stops answering for itself and returns the listening server, for `startServer({ listening })`:
   * connections already open get their answer and close; new ones go to the real server.
   */
  handOver(): net.Server;
  close(): Promise<void>;
}

function answer(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    Connection: 'close',
    ...extra,
  });
  res.end(text);
}

/**
 * Listens before any snapshot can be served (a replica fetching its first build): `/healthz`
 * answers 200 (the process is alive), `/readyz` 503 with what it waits for (a load balancer or
 * Kubernetes keeps traffic away), anything else 503 with Retry-After. Every answer closes its
 * connection, so none lingers past the hand-over to the real server.
 */
export async function listenAwaitingSnapshot(port: number, host: string, status: WaitingStatus): Promise<AwaitingSnapshot> {
  const pending = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') return answer(res, 200, { status: 'ok' });
    const now = status();
    if (path === '/readyz') return answer(res, 503, { status: now.state, detail: now.detail });
    // Each interface's own error body, as the server would write it.
    const style = path === '/openmusic' || path.startsWith('/openmusic/') ? 'openmusic' : 'v1';
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const error = errorResponse(new ApiError(503, `No snapshot in service yet: ${now.detail}`), style, requestId);
    answer(res, error.status, error.body, { 'Retry-After': '5', 'X-Request-Id': requestId });
  });
  const listening = net.createServer({ allowHalfOpen: true });
  const toPending = (socket: net.Socket) => pending.emit('connection', socket);
  listening.on('connection', toPending);
  await new Promise<void>((resolve, reject) => {
    listening.once('error', reject);
    listening.listen(port, host, () => resolve());
  });
  const address = listening.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    handOver() {
      listening.off('connection', toPending);
      pending.closeIdleConnections();
      return listening;
    },
    close: () =>
      new Promise<void>((resolve) => {
        pending.closeAllConnections();
        listening.close(() => resolve());
      }),
  };
}
