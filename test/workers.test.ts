import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { converse, responses } from './helpers/raw-http.js';
import { publishVariant, startChildOmm, startChildServer, type ChildServer } from './helpers/child-server.js';
import { SMALL_CATALOG, tempDir, writeRaw } from './helpers/raw-fixture.js';

let server: ChildServer | null = null;
afterEach(async () => {
  if (server && server.child.exitCode === null) {
    server.kill('SIGKILL');
    await server.exited();
  }
});

describe('--workers', () => {
  it('shares one port between workers, merges their metrics, swaps every worker on SIGHUP and drains on SIGTERM', async () => {
    const dist = tempDir('omm-workers-');
    const a = await publishVariant(dist, 'First');
    server = await startChildServer(dist, ['--workers', '2']);
    const pids = new Set<number>(
      JSON.parse(
        server
          .stderr()
          .split('\n')
          .find((l) => l.includes('workers-listening'))!,
      ).pids,
    );
    expect(pids.size).toBe(2);
    for (let i = 0; i < 40; i++) expect((await fetch(`${server.url}/v1/song/100`)).status).toBe(200);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    // One description per family, a series per worker, and between them every request.
    expect(metrics.match(/^# TYPE omm_http_requests_total counter$/gm)).toHaveLength(1);
    const counts = [...metrics.matchAll(/^omm_http_requests_total\{worker="(\d)",route="\/v1\/song\/:id",status="200"\} (\d+)$/gm)];
    expect(counts.map((m) => m[1]).sort()).toEqual(['1', '2']);
    expect(counts.reduce((sum, m) => sum + Number(m[2]), 0)).toBe(40);
    expect([...metrics.matchAll(/^omm_snapshot_info\{worker="\d",build_id="(\w+)"\} 1$/gm)].map((m) => m[1])).toEqual([a, a]);

    const b = await publishVariant(dist, 'Second');
    server.kill('SIGHUP');
    await server.waitFor(/snapshot-swapped/);
    for (let i = 0; i < 200; i++) {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      const builds = [...text.matchAll(/^omm_snapshot_info\{worker="\d",build_id="(\w+)"\} 1$/gm)].map((m) => m[1]);
      if (builds.length === 2 && builds.every((x) => x === b)) break;
      if (i === 199) throw new Error(`workers did not all swap: ${builds}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    for (let i = 0; i < 20; i++)
      expect(((await (await fetch(`${server.url}/v1/song/100`)).json()) as { data: { attributes: { name: string } } }).data.attributes.name).toBe('Second');

    server.kill('SIGTERM');
    expect(await server.exited()).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  }, 60_000);
});

describe('--workers and a client that half-closes', () => {
  it('answers /metrics (answered asynchronously, merged by the primary) and what follows it before ending the connection, on both cores', async () => {
    const dist = tempDir('omm-workers-fin-');
    await publishVariant(dist, 'First');
    for (const core of ['fast', 'node']) {
      server = await startChildServer(dist, ['--workers', '2', '--http-core', core]);
      const requests = 'GET /metrics HTTP/1.1\r\nHost: t\r\n\r\nGET /v1/song/100 HTTP/1.1\r\nHost: t\r\n\r\nGET /metrics HTTP/1.1\r\nHost: t\r\n\r\n';
      const { bytes, closed } = await converse(server.url, { chunks: [requests], raw: true, fin: true, waitMs: 5000 });
      const all = responses(bytes);
      expect(
        all.map((r) => r.status),
        core,
      ).toEqual([200, 200, 200]);
      expect(all[0].body.toString(), core).toMatch(/^omm_snapshot_info\{worker="\d"/m);
      expect(JSON.parse(all[1].body.toString()).data.id, core).toBe('100');
      expect(closed, core).toBe(true);
      server.kill('SIGTERM');
      expect(await server.exited()).toBe(0);
    }
  }, 60_000);
});

describe('--reader', () => {
  it('pread serves the same answers with only the search indexes mapped, and survives their pages being dropped', async () => {
    const dist = tempDir('omm-reader-');
    await publishVariant(dist, 'Read');
    const dir = join(dist, 'snapshots', readdirSync(join(dist, 'snapshots'))[0]);
    const searchBytes = readdirSync(dir)
      .filter((f) => /^search\..*\.blob$/.test(f))
      .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
    expect(searchBytes).toBeGreaterThan(0);
    const paths = ['/v1/song/100?include=albums,artists', '/v1/search?term=song&types=song', '/v1/match/song?name=Song+B&artist=%C3%84rzte'];
    const answers: string[][] = [];
    for (const reader of ['mmap', 'pread']) {
      // A budget of 0: the search pages are dropped at every check (every 200 ms).
      server = await startChildServer(dist, ['--reader', reader, '--search-pages', '0']);
      const read = async () => Promise.all(paths.map(async (p) => (await fetch(`${server!.url}${p}`)).text()));
      answers.push(await read());
      const mapped = Number(/^omm_snapshot_mapped_bytes (\d+)$/m.exec(await (await fetch(`${server.url}/metrics`)).text())![1]);
      if (reader === 'pread') {
        // Only search indexes are mapped, and only those the requests used (a table's shards are
        // read when it is first used): the songs' one and its first pages.
        expect(mapped).toBe(statSync(join(dir, 'search.songs.blob')).size + statSync(join(dir, 'search.songs.first-pages.blob')).size);
        // The search pages are dropped from the process at every check: the same answers after.
        await new Promise((r) => setTimeout(r, 1_000));
        const releases = Number(/^omm_search_page_releases_total (\d+)$/m.exec(await (await fetch(`${server.url}/metrics`)).text())![1]);
        expect(releases).toBeGreaterThanOrEqual(3);
        expect(await read()).toEqual(answers[1]);
      } else expect(mapped).toBeGreaterThan(searchBytes);
      server.kill('SIGTERM');
      expect(await server.exited()).toBe(0);
    }
    expect(answers[1]).toEqual(answers[0]);
  }, 30_000);
});

describe('start --workers', () => {
  it('start: the primary compiles and verifies once; its workers only serve', async () => {
    const raw = writeRaw(SMALL_CATALOG);
    const out = tempDir('omm-start-workers-');
    server = await startChildOmm(['start', '--raw', raw, '--out', out, '--port', '0', '--workers', '2']);
    expect((await fetch(`${server.url}/v1/song/100`)).status).toBe(200);
    const stderr = server.stderr();
    expect(stderr.match(/omm: compiled snapshot/g)).toHaveLength(1);
    // A worker that ran the start command again would find the snapshot up to date and say so.
    expect(stderr).not.toContain('is up to date');
    server.kill('SIGTERM');
    expect(await server.exited()).toBe(0);
  });
});
