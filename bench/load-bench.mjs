#!/usr/bin/env node
// Load benchmark (issue 20): ours against the bare node:http ceiling and a SQLite peer, on the same
// generated catalog and the same requests, driven by wrk. Each server runs on core 0 and wrk on
// core 1 (`-t2 -c64`, rotating paths from bench/load/rotate-paths.lua: no request is a replay).
// Every kind gets a warm-up run, then `runs` timed runs (medians reported) taken in turns with
// runs of the ceiling, so each run has a ceiling run right before and right after it: its ratio
// is its req/s over their mean (this machine's speed drifts within minutes).
// Usage: npm run bench:load -- [--songs 1000000] [--seconds 10] [--warmup 3] [--runs 3]
//          [--servers ceiling,sqlite,ours[,shaped]] [--kinds "song by id,one-word search"]
//          (shaped: the ceiling sending our song-by-id headers and size, after ours)
//          [--serve-args "--workers 2"] [--growth 50] [--label "before"] [--out file.md]
//          [--heavy-tail] (the catalog with a real catalog's heavy tail: omm generate --heavy-tail)
//          [--takedown 100000] (also ours on the same snapshot plus a deletes set of about that
//          many songs, albums taken down by UPC, the requests drawn from the songs in service)
//          [--segments 7] (ours on the snapshot plus that many deltas, one per day of changes,
//          and on the full compile of the last day, what compaction gives; the requests drawn
//          from the last day's catalog; docs/segments.md)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../dist/catalog/catalog.js';
import { arg, numberArg, seeded } from './cli-args.mjs';
import { waitIdle } from './load/proc-tree.mjs';
import { startProcess, startServer } from './load/server-process.mjs';
import { ensureWrk, median, runWrk, writePaths } from './load/wrk.mjs';
import { loadKinds, tailKinds } from './load/load-kinds.mjs';
import { TAIL_TITLES } from '../dist/generate/heavy-tail.js';
import { benchCatalog, work } from './load/bench-catalog.mjs';
import { albumsToTakeDown, linkedDist, takedownUpcs } from './load/takedown-dist.mjs';
import { segmentedDist } from './load/segments-dist.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const songs = numberArg('songs', '1000000');
const seconds = numberArg('seconds', '10');
const warmup = numberArg('warmup', '3');
const runs = numberArg('runs', '3');
const servers = new Set(arg('servers', 'ceiling,sqlite,ours').split(','));
const kindFilter = arg('kinds', '') ? new Set(arg('kinds', '').split(/,(?! )/)) : null; // "song + albums, artists" keeps its comma
const serveArgs = arg('serve-args', '').split(' ').filter(Boolean);
const growth = numberArg('growth', '50');
const label = arg('label', '');
const outFile = arg('out', '');
const takedownSongs = numberArg('takedown', '0');
const segmentDays = numberArg('segments', '0');
const heavyTail = process.argv.includes('--heavy-tail');
const wrkVersion = ensureWrk();
const log = (line) => console.error(`[bench:load] ${line}`);
const { raw, dist } = benchCatalog(songs, log, [], { heavyTail });
const dbFile = join(work, `sqlite-${songs}-1${heavyTail ? '-tail' : ''}.db`);
if (servers.has('sqlite') && !existsSync(dbFile))
  execFileSync(process.execPath, [join(root, 'bench', 'peers', 'sqlite-build.mjs'), raw, dbFile], { stdio: 'inherit' });

const tmp = mkdtempSync(join(tmpdir(), 'omm-load-'));
let takedownDist = null;
if (takedownSongs > 0) {
  takedownDist = linkedDist(dist, join(work, `takedown-${songs}-1`));
  const report = takedownUpcs(takedownDist, albumsToTakeDown(dist, { songs: takedownSongs }), join(tmp, 'takedown.txt'));
  log(`takedown: ${JSON.stringify(report.set)} taken down in ${report.wallMs} ms`);
}
let segmented = null;
if (segmentDays > 0) {
  const paths = { dist: join(work, `segments-${songs}-1`), compacted: join(work, `segments-${songs}-1-compacted`) };
  segmented = {
    ...paths,
    deltas: await segmentedDist(dist, raw, segmentDays, { to: paths.dist, compacted: paths.compacted, scratch: join(work, 'segments-raw'), log }),
  };
}
const cat = Catalog.open(segmented?.compacted ?? takedownDist ?? dist);
const kinds = [...loadKinds(cat, seeded(5)), ...(heavyTail ? tailKinds(cat, seeded(6), TAIL_TITLES) : [])].filter((k) => !kindFilter || kindFilter.has(k.name));
const deletesSet = cat.deletes
  ? `${cat.deletes.count('song').toLocaleString('en-US')} songs, ${cat.deletes.count('album').toLocaleString('en-US')} albums`
  : '';
cat.close();
let files = 0;
const pathsFile = (paths) => writePaths(join(tmp, `${files++}.txt`), paths);

const ceiling = servers.has('ceiling')
  ? await startProcess(join(root, 'bench', 'peers', 'ceiling-server.mjs'), ['18501'], { port: 18501, readyPath: '/', readyStatus: null })
  : null;
const ceilingRuns = [];

const rows = [];
/**
 * Measures every kind on one server. Per kind: a warm-up run, then ceiling and kind in turns,
 * C K C K C K C, each run on an idle core (a server may still be working off requests wrk gave
 * up on). Run i's ratio is its req/s over the mean of the ceiling runs on either side of it; the
 * kind's ratio is the median of its runs' ratios.
 */
async function measureServer(server, target, which, only = kinds) {
  for (const kind of only) {
    for (const [iface, paths] of Object.entries(kind.paths)) {
      if (!which(iface)) continue;
      const file = pathsFile(paths);
      await waitIdle(target.pid);
      if (warmup > 0) runWrk(target.origin, file, { seconds: warmup });
      const ceilings = [];
      const runsOf = [];
      const ceilingRun = async () => {
        if (!ceiling) return;
        await waitIdle(target.pid);
        const r = runWrk(ceiling.origin, file, { seconds });
        ceilings.push(r);
        ceilingRuns.push(r);
      };
      await ceilingRun();
      for (let i = 0; i < runs; i++) {
        runsOf.push(runWrk(target.origin, file, { seconds }));
        await ceilingRun();
      }
      const ratios = runsOf.map((r, i) => (ceiling ? r.reqPerSec / ((ceilings[i].reqPerSec + ceilings[i + 1].reqPerSec) / 2) : NaN));
      const row = {
        server,
        kind: kind.name,
        iface,
        reqPerSec: median(runsOf.map((r) => r.reqPerSec)),
        p50Ms: median(runsOf.map((r) => r.p50Ms)),
        p99Ms: median(runsOf.map((r) => r.p99Ms)),
        rps: runsOf.map((r) => r.reqPerSec),
        p99s: runsOf.map((r) => r.p99Ms),
        ratio: median(ratios),
        ratios,
        ceilingRps: ceilings.map((r) => r.reqPerSec),
        ceilingP99Ms: median(ceilings.map((r) => r.p99Ms)),
        non2xx: runsOf.reduce((n, r) => n + r.non2xx, 0),
        errors: runsOf.reduce((n, r) => n + r.socketErrors, 0),
      };
      rows.push(row);
      log(
        `${server} ${iface} ${kind.name}: ${row.reqPerSec} req/s (${row.ratio.toFixed(3)} of the ceiling; runs ${ratios.map((x) => x.toFixed(3)).join(', ')}), p99 ${row.p99Ms} ms (ceiling ${row.ceilingP99Ms}); ceilings ${row.ceilingRps.join(', ')}`,
      );
    }
  }
}

const memory = {};
let songBytes = 0;
try {
  if (servers.has('sqlite')) {
    const sqlite = await startProcess(join(root, 'bench', 'peers', 'sqlite-server.mjs'), [dbFile, '18502'], {
      port: 18502,
      readyPath: '/v1/song/x',
      readyStatus: null,
    });
    try {
      await measureServer('sqlite', sqlite, (iface) => iface === 'v1');
      memory.sqlite = sqlite.memory();
    } finally {
      await sqlite.close();
    }
  }
  if (servers.has('ours')) {
    const ours = await startServer(segmented?.compacted ?? dist, { port: 18503, args: serveArgs });
    try {
      await measureServer(segmented ? `ours, full compile of day ${segmentDays} (compacted)` : 'ours', ours, () => true);
      memory.ours = ours.memory();
      const byId = kinds.find((k) => k.name === 'song by id');
      if (byId) {
        const sizes = await Promise.all(byId.paths.v1.slice(0, 200).map(async (p) => (await (await fetch(`${ours.origin}${p}`)).arrayBuffer()).byteLength));
        songBytes = Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length);
      }
      if (growth > 0 && byId) {
        // Leaks show as growth of the process's own (anonymous) memory over many requests.
        const long = runWrk(ours.origin, pathsFile([...byId.paths.v1, ...(byId.paths.om ?? [])]), { seconds: growth });
        memory.oursAfterGrowth = { ...ours.memory(), requests: long.requests };
      }
    } finally {
      await ours.close();
    }
  }
  if (segmented) {
    const seg = await startServer(segmented.dist, { port: 18506, args: serveArgs });
    try {
      await measureServer(`ours, base + ${segmentDays} deltas`, seg, () => true);
      memory.oursSegments = seg.memory();
    } finally {
      await seg.close();
    }
  }
  if (takedownDist) {
    const down = await startServer(takedownDist, { port: 18505, args: serveArgs });
    try {
      await measureServer(`ours, deletes set (${deletesSet})`, down, () => true);
      memory.oursTakedown = down.memory();
    } finally {
      await down.close();
    }
  }
  if (servers.has('shaped') && songBytes > 0) {
    // What node:http costs for our song-by-id answer's shape (its headers, its size) with no work behind it.
    const shaped = await startProcess(join(root, 'bench', 'peers', 'ceiling-server.mjs'), ['18504', String(songBytes), 'shaped'], {
      port: 18504,
      readyPath: '/',
      readyStatus: null,
    });
    try {
      await measureServer(
        `ceiling with our headers, ${songBytes} B`,
        shaped,
        (iface) => iface === 'v1',
        kinds.filter((k) => k.name === 'song by id'),
      );
    } finally {
      await shaped.close();
    }
  }
} finally {
  await ceiling?.close();
  rmSync(tmp, { recursive: true, force: true });
  if (takedownDist) rmSync(takedownDist, { recursive: true, force: true });
  if (segmented) for (const dir of [segmented.dist, segmented.compacted]) rmSync(dir, { recursive: true, force: true });
}

// The report: one table, ours and SQLite side by side per kind.
const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : '—');
const sqliteOf = (kind) => rows.find((r) => r.server === 'sqlite' && r.kind === kind);
const lines = [];
lines.push(
  `${label ? `${label}: ` : ''}${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${songs.toLocaleString('en-US')} songs${heavyTail ? ' with the heavy tail (omm generate --heavy-tail)' : ''}; ${cpus().length} x ${cpus()[0].model}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}; ${wrkVersion}; ${serveArgs.length ? `omm serve ${serveArgs.join(' ')}` : 'omm serve (defaults)'}`,
);
lines.push(
  `wrk -t2 -c64 --timeout 30s on core 1, servers on core 0, rotating paths; per kind ${warmup} s warm-up, then ceiling and kind in turns (${runs} kind runs of ${seconds} s, ${runs + 1} ceiling runs): medians, each run in brackets; ratio = median over runs of run / mean of the ceiling runs beside it. Ceiling runs: ${fmt(Math.min(...ceilingRuns.map((r) => r.reqPerSec)))}-${fmt(Math.max(...ceilingRuns.map((r) => r.reqPerSec)))} req/s, p99 median ${median(ceilingRuns.map((r) => r.p99Ms))} ms`,
);
lines.push('');
lines.push(
  '| server | interface | request | req/s (runs) | ratio to ceiling (runs) | p50 ms | p99 ms (runs) | ceiling p99 ms | vs SQLite (req/s; ratio) | non-2xx / errors |',
);
lines.push('|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const s = r.server === 'ours' ? sqliteOf(r.kind) : null;
  const vs = s ? `${fmt(r.reqPerSec / s.reqPerSec, 1)}x; ${fmt(r.ratio / s.ratio, 1)}x` : '';
  lines.push(
    `| ${r.server} | ${r.iface === 'v1' ? '/v1' : '/openmusic'} | ${r.kind} | ${fmt(r.reqPerSec)} (${r.rps.map((x) => fmt(x)).join(', ')}) | ${fmt(r.ratio, 3)} (${r.ratios.map((x) => fmt(x, 2)).join(', ')}) | ${r.p50Ms} | ${r.p99Ms} (${r.p99s.join(', ')}) | ${r.ceilingP99Ms} | ${vs} | ${r.non2xx} / ${r.errors} |`,
  );
}
const downRows = rows.filter((r) => r.server.startsWith('ours, deletes set'));
if (downRows.length > 0) {
  lines.push(
    '',
    `With the deletes set against the same snapshot without it (${downRows[0].server.slice(5)}): ratio to the ceiling, then p99, each over ours without it:`,
  );
  for (const d of downRows) {
    const o = rows.find((r) => r.server === 'ours' && r.kind === d.kind && r.iface === d.iface);
    if (o) lines.push(`- ${d.iface === 'v1' ? '/v1' : '/openmusic'} ${d.kind}: ${fmt(d.ratio / o.ratio, 2)}x, p99 ${fmt(d.p99Ms / o.p99Ms, 2)}x`);
  }
}
const mem = (m) => (m ? `${m.rss} / ${m.anon} / ${m.file}` : '—');
lines.push('');
lines.push(
  `Server memory after the runs, MiB total / anonymous / mapped files: ours ${mem(memory.ours)}${memory.oursAfterGrowth ? `; after ${memory.oursAfterGrowth.requests.toLocaleString('en-US')} more song-by-id requests ${mem(memory.oursAfterGrowth)}` : ''}; SQLite ${mem(memory.sqlite)}${memory.oursTakedown ? `; ours with the deletes set ${mem(memory.oursTakedown)}` : ''}.`,
);
const report = lines.join('\n');
console.log(`\n${report}\n`);
if (outFile) writeFileSync(outFile, `${report}\n`);
writeFileSync(join(work, `load-${songs}.json`), JSON.stringify({ rows, ceilingRuns, memory }, null, 1));
