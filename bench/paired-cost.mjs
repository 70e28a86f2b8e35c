#!/usr/bin/env node
// CPU per request of two servers measured side by side: both pinned to core 0 and driven at the
// same time by one wrk each (core 1, one thread, 32 connections), so whatever the host does to
// the machine's speed during a run it does to both. Each round gives each server's CPU time per
// request (user + system from /proc) and the ratio b / a; the median ratio is the answer.
// Two copies of one server measure 0.98-1.01 this way, where runs taken in turns on this host
// scatter by ±20% (docs/benchmarks.md, "Where song by id's time goes").
//
// Usage: npm run bench:pair -- --a ceiling --b ours [--kind "song by id"] [--iface v1|om]
//          [--rounds 6] [--seconds 5] [--dist bench/.data/dist-1000000-1]
// A server is `ceiling` (bare node:http, ~600-byte body), `shaped` (the ceiling with our headers
// and a 743-byte body), `ours` (this checkout's `omm serve`), `omm:<path to another checkout's
// bin/omm>` (to compare builds) or `script:<node script> [args]` (started with the port first). The dist directory is the one bench:load leaves.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../dist/catalog/catalog.js';
import { arg, numberArg, seeded } from './cli-args.mjs';
import { loadKinds } from './load/load-kinds.mjs';
import { startProcess } from './load/server-process.mjs';
import { ensureWrk, median, startWrk, writePaths } from './load/wrk.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = arg('dist', join(root, 'bench', '.data', 'dist-1000000-1'));
const kindName = arg('kind', 'song by id');
const iface = arg('iface', 'v1');
const rounds = numberArg('rounds', '6');
const seconds = numberArg('seconds', '5');
if (!existsSync(join(dist, 'current'))) throw new Error(`no snapshot in ${dist}: run npm run bench:load once, or pass --dist`);
ensureWrk();

const cat = Catalog.open(dist);
const kind = loadKinds(cat, seeded(5)).find((k) => k.name === kindName);
cat.close();
if (!kind) throw new Error(`no kind ${JSON.stringify(kindName)}`);
const paths = writePaths(join(root, 'bench', '.data', 'pair-paths.txt'), kind.paths[iface]);

/** user + system CPU seconds of one process. */
const cpuSeconds = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

/** One of the servers the usage names, started on core 0 and ready. */
function start(spec, port) {
  const ceiling = join(root, 'bench', 'peers', 'ceiling-server.mjs');
  const peer = (script, args) => startProcess(script, [String(port), ...args], { port, readyPath: '/', readyStatus: null });
  const omm = (bin) => startProcess(bin, ['serve', dist, '--port', String(port)], { port, readyPath: '/readyz' });
  if (spec === 'ceiling') return peer(ceiling, []);
  if (spec === 'shaped') return peer(ceiling, ['743', 'shaped']);
  if (spec === 'ours') return omm(join(root, 'bin', 'omm'));
  if (spec.startsWith('omm:')) return omm(spec.slice(4));
  if (spec.startsWith('script:')) {
    const [script, ...args] = spec.slice(7).split(' ');
    return peer(script, args);
  }
  throw new Error(`unknown server ${JSON.stringify(spec)}: ceiling, shaped, ours, omm:<bin/omm> or script:<file> [args]`);
}

const specs = [arg('a', 'ceiling'), arg('b', 'ours')];
const servers = await Promise.all(specs.map((spec, i) => start(spec, 18791 + i)));
servers.forEach((server, i) => (server.spec = specs[i]));
try {
  const drive = (secs) => Promise.all(servers.map((s) => startWrk(s.origin, paths, { seconds: secs, threads: 1, connections: 32 })));
  await drive(3); // warm-up
  const ratios = [];
  for (let round = 1; round <= rounds; round++) {
    const before = servers.map((s) => cpuSeconds(s.pid));
    const results = await drive(seconds);
    const us = servers.map((s, i) => ((cpuSeconds(s.pid) - before[i]) * 1e6) / results[i].requests);
    ratios.push(us[1] / us[0]);
    console.log(
      `round ${round}: ${servers.map((s, i) => `${s.spec} ${results[i].reqPerSec} req/s, ${us[i].toFixed(1)} µs CPU/req`).join('; ')}; b/a ${(us[1] / us[0]).toFixed(3)}`,
    );
  }
  console.log(
    `${kindName} (${iface}): CPU per request, ${servers[1].spec} / ${servers[0].spec}: median ${median(ratios).toFixed(3)} (rounds ${ratios.map((r) => r.toFixed(3)).join(', ')})`,
  );
} finally {
  await Promise.all(servers.map((s) => s.close()));
}
