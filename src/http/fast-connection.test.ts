import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { converse } from '../../test/helpers/raw-http.js';
import { serveFast } from './fast-connection.js';

/**
 * The fast core with a listener of its own: /slow is answered 300 ms later (as /metrics is under
 * --workers), everything else at once.
 */
async function fastServer(): Promise<{ port: number; sockets: Socket[]; close: () => Promise<void> }> {
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const answer = () => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(req.url!.length) });
      res.end(req.url);
    };
    if (req.url === '/slow') setTimeout(answer, 300);
    else answer();
  };
  const http = createHttpServer(listener);
  const sockets: Socket[] = [];
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    sockets.push(socket);
    serveFast(socket, {
      http,
      listener,
      keepAliveTimeoutMs: 5000,
      headersTimeoutMs: 10_000,
      writeStallTimeoutMs: 60_000,
      stats: { answered: 0, handedOver: 0 },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const bodies = (text: string) => [...text.matchAll(/\r\n\r\n(\/[a-z0-9]*)/g)].map((m) => m[1]);

/** Sends `bytes` (then FIN when `fin`) and collects the answer until the server ends it, `answers` responses came, or `waitMs` passes. */
async function send(port: number, bytes: string, { fin = false, waitMs = 1500, answers = Infinity } = {}): Promise<{ text: string; ended: boolean }> {
  const doneWhen = (got: Buffer) => bodies(got.toString('latin1')).length >= answers;
  const { bytes: got, closed } = await converse(`http://127.0.0.1:${port}`, { chunks: [bytes], raw: true, fin, waitMs, doneWhen });
  return { text: got.toString('latin1'), ended: closed };
}

let running: Awaited<ReturnType<typeof fastServer>> | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

describe('the fast core while an answer is made asynchronously', () => {
  it('reads no further until the answer is sent, then answers what came after it, in order', async () => {
    running = await fastServer();
    // 4 MiB of pipelined requests behind the slow one.
    const pad = 'x'.repeat(1000);
    const count = 4000;
    const burst = 'GET /slow HTTP/1.1\r\nHost: t\r\n\r\n' + `GET /f HTTP/1.1\r\nHost: t\r\nX-Pad: ${pad}\r\n\r\n`.repeat(count);
    const answer = send(running.port, burst, { waitMs: 5000, answers: count + 1 });
    await new Promise((r) => setTimeout(r, 150));
    // While /slow is answered, the server has stopped reading: the rest waits in the kernel.
    const readWhileBusy = running.sockets[0].bytesRead;
    expect(readWhileBusy).toBeLessThan(burst.length / 4);
    const { text } = await answer;
    const got = bodies(text);
    expect(got.length).toBe(count + 1);
    expect(got[0]).toBe('/slow');
    expect(got.slice(1).every((b) => b === '/f')).toBe(true);
  });

  it('answers every request sent before a FIN that arrives meanwhile, then ends the connection', async () => {
    running = await fastServer();
    const { text, ended } = await send(
      running.port,
      'GET /a HTTP/1.1\r\nHost: t\r\n\r\nGET /slow HTTP/1.1\r\nHost: t\r\n\r\nGET /b HTTP/1.1\r\nHost: t\r\n\r\n',
      { fin: true },
    );
    expect(bodies(text)).toEqual(['/a', '/slow', '/b']);
    expect(ended).toBe(true);
  });

  it('after a FIN, hands a request it does not answer itself to node:http with the end, which answers it', async () => {
    running = await fastServer();
    // The POST is node:http's; the FIN was read before the fast core got to it (behind /slow).
    const { text, ended } = await send(running.port, 'GET /slow HTTP/1.1\r\nHost: t\r\n\r\nPOST /p HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nhi', {
      fin: true,
    });
    expect(bodies(text)).toEqual(['/slow', '/p']);
    expect(ended).toBe(true);
    // A request cut short by the FIN: node:http answers it 400, as it would have alone.
    const cut = await send(running.port, 'GET /slow HTTP/1.1\r\nHost: t\r\n\r\nGET /b HTTP/1.1\r\nHo', { fin: true });
    expect(bodies(cut.text)).toEqual(['/slow']);
    expect(cut.text).toMatch(/HTTP\/1\.1 400 Bad Request\r\nConnection: close\r\n\r\n$/);
  });
});
