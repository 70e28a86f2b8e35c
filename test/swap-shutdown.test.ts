import { closeSync, openSync, readdirSync, statSync, writeSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Pool } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { publishVariant, startChildServer, type ChildServer } from './helpers/child-server.js';
import { tempDir, writeRaw } from './helpers/raw-fixture.js';

/** A closed loop of `connections` clients until stopped: counts answers, failures and the builds seen. */
function loadLoop(url: string, connections = 8) {
  const pool = new Pool(url, { connections });
  let running = true;
  let ok = 0;
  const failures: string[] = [];
  const builds: string[] = [];
  const names = new Set<string>();
  const one = async () => {
    while (running) {
      try {
        const info = await pool.request({ path: '/', method: 'GET' });
        const body = (await info.body.json()) as { snapshot: { buildId: string } };
        if (info.statusCode !== 200) failures.push(`/ ${info.statusCode}`);
        else if (builds[builds.length - 1] !== body.snapshot.buildId) builds.push(body.snapshot.buildId);
        const song = await pool.request({ path: '/v1/song/100', method: 'GET' });
        const s = (await song.body.json()) as { data: { attributes: { name: string } } };
        if (song.statusCode !== 200) failures.push(`/v1/song/100 ${song.statusCode}`);
        else names.add(s.data.attributes.name);
        ok += 2;
      } catch (err) {
        failures.push(String(err));
      }
    }
  };
  const loops = Array.from({ length: connections }, one);
  return {
    get ok() {
      return ok;
    },
    async stop() {
      running = false;
      await Promise.all(loops);
      await pool.close();
      return { ok, failures, builds, names };
    },
  };
}

async function readyBuild(url: string): Promise<string> {
  const res = await fetch(`${url}/readyz`);
  return ((await res.json()) as { buildId: string }).buildId;
}

async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

let server: ChildServer | null = null;
afterEach(async () => {
  if (server && server.child.exitCode === null) {
    server.kill('SIGKILL');
    await server.exited();
  }
  server = null;
});

describe('zero-downtime snapshot swap', () => {
  it('swaps twice on SIGHUP under load with zero failed requests, and refuses a corrupt snapshot', async () => {
    const dist = tempDir('omm-swap-');
    const a = await publishVariant(dist, 'Version A');
    server = await startChildServer(dist);
    const load = loadLoop(server.url);
    await until(async () => load.ok > 200);

    const b = await publishVariant(dist, 'Version B');
    server.kill('SIGHUP');
    await until(async () => (await readyBuild(server!.url)) === b);
    await until(async () => load.ok > 600);

    const c = await publishVariant(dist, 'Version C');
    server.kill('SIGHUP');
    await until(async () => (await readyBuild(server!.url)) === c);
    await until(async () => load.ok > 1000);

    // A snapshot damaged on disk after it was published: refused, C keeps serving.
    const mark = server.stderr().length;
    const d = await publishVariant(dist, 'Version D');
    const dDir = join(dist, 'snapshots', d);
    const shard = join(dDir, readdirSync(dDir).find((f) => f.startsWith('songs.'))!);
    const fd = openSync(shard, 'r+');
    writeSync(fd, Buffer.from([0xff, 0x00, 0xff]), 0, 3, Math.floor(statSync(shard).size / 2));
    closeSync(fd);
    server.kill('SIGHUP');
    const refused = JSON.parse(await server.waitFor(/snapshot-refused/, 15_000, mark));
    expect(refused).toMatchObject({ level: 'error', outcome: 'refused', buildId: c });
    expect(refused.reason).toMatch(/fails verification.*E_CHECKSUM/);
    await until(async () => load.ok > 1400);
    expect(await readyBuild(server.url)).toBe(c);

    const result = await load.stop();
    expect(result.failures).toEqual([]);
    expect(result.builds).toEqual([a, b, c]);
    expect([...result.names]).toEqual(['Version A', 'Version B', 'Version C']);
    expect(server.stderr()).toMatch(new RegExp(`"event":"snapshot-swapped".*"buildId":"${b}","previous":"${a}".*"warmUpMs":\\d+`));
  }, 60_000);
});

describe('--watch', () => {
  it('swaps when a compile replaces the current pointer, with no signal', async () => {
    const dist = tempDir('omm-watch-');
    const a = await publishVariant(dist, 'Watched A');
    server = await startChildServer(dist, ['--watch']);
    expect(await readyBuild(server.url)).toBe(a);
    const b = await publishVariant(dist, 'Watched B');
    await until(async () => (await readyBuild(server!.url)) === b);
    const song = (await (await fetch(`${server.url}/v1/song/100`)).json()) as { data: { attributes: { name: string } } };
    expect(song.data.attributes.name).toBe('Watched B');
    expect(server.stderr()).toMatch(/"event":"snapshot-swapped"/);
  }, 30_000);
});

describe('graceful shutdown', () => {
  it('finishes in-flight responses on SIGTERM, then exits 0', async () => {
    // 100 songs with 200 KB of lyrics each: one page of songs is a 20 MB response, more than
    // the socket buffers between client and server hold.
    const verse = 'la '.repeat(200_000 / 3);
    const ids = Array.from({ length: 100 }, (_, i) => String(1000 + i));
    const rawDir = writeRaw({
      artists: 'id,name',
      albums: 'id,name',
      songs: ['id,name,duration_ms', ...ids.map((id) => `${id},Long ${id},1000`)].join('\n'),
      lyrics: ['song_id,language,text', ...ids.map((id) => `${id},en,${verse}`)].join('\n'),
    });
    const dist = tempDir('omm-term-');
    await compileCatalog({ rawDir, outDir: dist });
    server = await startChildServer(dist, ['--no-compression']);
    const { hostname, port } = new URL(server.url);
    const path = '/v1/songs?limit=100';
    const expected = Buffer.from(await (await fetch(`${server.url}${path}`)).arrayBuffer());
    // Clients that ask for it and do not read yet: the server
    // cannot finish writing, so responses are in flight when SIGTERM comes.
    const request = `GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`;
    const sockets = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<ReturnType<typeof connect>>((resolve) => {
            const socket = connect(Number(port), hostname, () => {
              socket.pause();
              socket.write(request);
              resolve(socket);
            });
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 400));
    server.kill('SIGTERM');
    const shutdown = JSON.parse(await server.waitFor(/"event":"shutdown"/));
    expect(shutdown.connectionsWithUnsentBytes).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    const replies = await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<Buffer>((resolve) => {
            const chunks: Buffer[] = [];
            socket.on('data', (c: Buffer) => chunks.push(c));
            socket.on('close', () => resolve(Buffer.concat(chunks)));
            socket.resume();
          }),
      ),
    );
    for (const reply of replies) {
      // The whole response, byte for byte, then the server closed the connection.
      const split = reply.indexOf('\r\n\r\n');
      const head = reply.subarray(0, split).toString('latin1');
      expect(head).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(Number(/content-length: (\d+)/i.exec(head)![1])).toBe(expected.length);
      expect(reply.subarray(split + 4).equals(expected)).toBe(true);
    }
    expect(await server.exited()).toBe(0);
  }, 60_000);
});

describe('timeouts', () => {
  it('answers 408 and closes a connection that does not finish its headers in --headers-timeout', async () => {
    const dist = tempDir('omm-timeout-');
    await publishVariant(dist, 'Slow');
    server = await startChildServer(dist, ['--headers-timeout', '400', '--request-timeout', '1000']);
    const { hostname, port } = new URL(server.url);
    const started = Date.now();
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), hostname, () => socket.write('GET /v1/song/100 HTTP/1.1\r\nHost: test\r\n'));
      let text = '';
      socket.setEncoding('latin1').on('data', (c: string) => (text += c));
      socket.on('close', () => resolve(text));
    });
    const waited = Date.now() - started;
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(waited).toBeGreaterThanOrEqual(350);
    expect(waited).toBeLessThan(5_000);
  }, 30_000);
});
