// Closed-loop HTTP load generator: N connections, each sending its next request as soon as the
// previous answer is read, over a list of paths taken round-robin from a random start. Runs in
// its own process (pin it away from the server with taskset). Prints one JSON object:
// {runs:[{requests, seconds, reqPerSec, p50Ms, p99Ms, maxMs, statuses}], ...}.
// Usage: node bench/load/load-generator.mjs --origin http://127.0.0.1:8080 --paths paths.json
//        [--connections 64] [--warmup 3] [--duration 10] [--runs 3] [--expect 200,404]
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { arg } from '../cli-args.mjs';

const origin = arg('origin');
const paths = JSON.parse(readFileSync(arg('paths'), 'utf8'));
const connections = Number(arg('connections', '64'));
const warmup = Number(arg('warmup', '3'));
const duration = Number(arg('duration', '10'));
const runs = Number(arg('runs', '3'));
const expected = new Set(arg('expect', '200').split(',').map(Number));
if (!origin || paths.length === 0) throw new Error('--origin and a non-empty --paths file are required');

const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
let cursor = Math.floor(Math.random() * paths.length);

async function phase(seconds) {
  const latencies = [];
  const statuses = {};
  let bytes = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const path = paths[cursor++ % paths.length];
      const t0 = performance.now();
      try {
        const res = await pool.request({ path, method: 'GET' });
        const body = await res.body.arrayBuffer();
        latencies.push(performance.now() - t0);
        bytes += body.byteLength;
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      } catch (err) {
        // A reset or refused connection is a failed request, counted, not the end of the run.
        latencies.push(performance.now() - t0);
        const key = `error ${err.code ?? err.name}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
  const failed = Object.entries(statuses).filter(([s]) => !expected.has(Number(s))).reduce((a, [, n]) => a + n, 0);
  const ok = latencies.length - failed;
  return {
    requests: latencies.length,
    seconds: Number(elapsed.toFixed(2)),
    reqPerSec: Math.round(ok / elapsed),
    p50Ms: Number(pct(0.5).toFixed(2)),
    p99Ms: Number(pct(0.99).toFixed(2)),
    maxMs: Number(latencies[latencies.length - 1].toFixed(2)),
    meanBytes: Math.round(bytes / latencies.length),
    statuses,
    failed,
  };
}

if (warmup > 0) await phase(warmup);
const results = [];
for (let i = 0; i < runs; i++) results.push(await phase(duration));
await pool.close();
const median = (key) => [...results.map((r) => r[key])].sort((a, b) => a - b)[Math.floor(results.length / 2)];
console.log(JSON.stringify({ connections, duration, runs: results, median: { reqPerSec: median('reqPerSec'), p50Ms: median('p50Ms'), p99Ms: median('p99Ms') } }));
