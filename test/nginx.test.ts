import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Pool } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
// deploy/nginx.conf as shipped, pointed at this test's ports (shared with bench:replicas).
import { startNginx } from '../scripts/nginx-recipe.mjs';
import { startChildServer, type ChildServer } from './helpers/child-server.js';
import { tempDir } from './helpers/raw-fixture.js';
import { findTool, missingTool } from './helpers/requirements.js';
import { SAMPLE_RAW } from './helpers/server.js';

/** A TCP port nothing listens on right now. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const processes: ChildProcess[] = [];
const replicas: ChildServer[] = [];
afterAll(async () => {
  // nginx's master stops its workers on TERM; a SIGKILL would leave them running, orphaned.
  await Promise.all(
    processes.map(
      (p) =>
        new Promise<void>((resolve) => {
          if (p.exitCode !== null || p.signalCode !== null) return resolve();
          const force = setTimeout(() => p.kill('SIGKILL'), 5000);
          p.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          p.kill('SIGTERM');
        }),
    ),
  );
  for (const r of replicas) if (r.child.exitCode === null) r.kill('SIGKILL');
});

const nginxPath = findTool(['nginx', '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'], ['-v']);
const noNginx = missingTool('nginx', nginxPath);

describe.skipIf(noNginx !== null)(`scale-out behind nginx${noNginx ? ` (skipped: ${noNginx})` : ''}`, () => {
  it('loses no request when one of two replicas is killed under load', async () => {
    const nginx = nginxPath!;

    const dist = tempDir('omm-nginx-dist-');
    await compileCatalog({ rawDir: SAMPLE_RAW, outDir: dist });
    const ports = [await freePort(), await freePort()];
    for (const port of ports) replicas.push(await startChildServer(dist, ['--trust-proxy'], port));

    const prefix = tempDir('omm-nginx-');
    const listen = await freePort();
    const proxy = startNginx(nginx, listen, ports, prefix);
    processes.push(proxy);
    const origin = `http://127.0.0.1:${listen}`;
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${origin}/readyz`)).status === 200) break;
      } catch {
        // not up yet
      }
      if (i > 200) throw new Error(`nginx did not come up: ${readFileSync(join(prefix, 'error.log'), 'utf8')}`);
      await new Promise((r) => setTimeout(r, 25));
    }

    const pool = new Pool(origin, { connections: 16 });
    const byUpstream = new Map<string, number>();
    const failures: string[] = [];
    let ok = 0;
    let killedAt = -1;
    let replicaGone = false;
    const afterGone: string[] = [];
    let running = true;
    const loop = async () => {
      for (let i = 0; running; i++) {
        const startedAfterGone = replicaGone;
        try {
          const res = await pool.request({ path: `/v1/song/${1 + (i % 500)}`, method: 'GET' });
          const body = (await res.body.json()) as { data?: { id: string } };
          if (res.statusCode !== 200 || !body.data) failures.push(`${res.statusCode}`);
          else {
            ok++;
            const upstream = String(res.headers['x-upstream']);
            byUpstream.set(upstream, (byUpstream.get(upstream) ?? 0) + 1);
            if (startedAfterGone) afterGone.push(upstream);
          }
        } catch (err) {
          failures.push(String(err));
        }
      }
    };
    const loops = Array.from({ length: 16 }, loop);
    while (ok < 2000) await new Promise((r) => setTimeout(r, 10));
    replicas[0].kill('SIGKILL');
    killedAt = ok;
    await replicas[0].exited();
    replicaGone = true;
    const afterKill = ok;
    while (ok < afterKill + 3000) await new Promise((r) => setTimeout(r, 10));
    running = false;
    await Promise.all(loops);
    await pool.close();

    expect(failures).toEqual([]);
    expect(killedAt).toBeGreaterThanOrEqual(2000);
    // Both replicas served before the kill; every request sent after the killed one was gone was
    // answered by the survivor (nginx may try the dead one first: X-Upstream then lists both).
    expect([...byUpstream.keys()].some((u) => u.includes(`:${ports[0]}`))).toBe(true);
    expect([...byUpstream.keys()].some((u) => u.includes(`:${ports[1]}`))).toBe(true);
    expect(afterGone.length).toBeGreaterThanOrEqual(3000);
    for (const upstream of new Set(afterGone)) expect(upstream.split(',').pop()!.trim()).toBe(`127.0.0.1:${ports[1]}`);
  }, 120_000);
});
