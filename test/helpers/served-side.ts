import { request } from 'undici';
import { startServer, type RunningServer } from '../../src/serve/server.js';

/** A server of one dist directory on a free port, for tests that compare two servers request by request. */
export interface Side {
  server: RunningServer;
  /** The answer: its status, its body as text and parsed (null when empty). */
  get(path: string): Promise<{ status: number; text: string; body: unknown }>;
}

export async function serveSide(dist: string): Promise<Side> {
  const server = await startServer({ snapshot: dist, port: 0, host: '127.0.0.1', log: null });
  return {
    server,
    async get(path) {
      const res = await request(`${server.url}${path}`);
      const text = await res.body.text();
      return { status: res.statusCode, text, body: text.length > 0 ? JSON.parse(text) : null };
    },
  };
}

/** The list sorts both interfaces take, as interface 1 spells them, and as interface 2 does. */
export const OM_SORT: Readonly<Record<string, string>> = { name: 'name', '-name': '-name', '-dateAdded': '-date_added', releaseDate: 'date_released' };
