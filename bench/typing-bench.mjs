#!/usr/bin/env node
// Search as you type in a real browser (issue 43): the explorer in headless Chromium
// (playwright-core, Debian's chromium: npm run setup:test) against `omm serve` on the bench
// catalog, typing song titles and artist names drawn from the catalog a key at a time, slower
// than the page's debounce (120 ms) so that every keystroke searches. Each keystroke's round
// trip is the page's own timing: the `omm-search` performance measure web/explorer/search.js
// records from the request sent to the results shown. Reports p50, p95, p99 and the slowest,
// against the target of 50 ms per keystroke. The server on core 0 (taskset).
// Usage: npm run bench:typing -- [--songs 10000000] [--queries 40] [--delay 160] [--warm 300] [--heavy-tail]
import { existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { chromium } from 'playwright-core';
import { Catalog } from '../dist/catalog/catalog.js';
import { numberArg, seeded } from './cli-args.mjs';
import { benchCatalog } from './load/bench-catalog.mjs';
import { hasTaskset, startServer } from './load/server-process.mjs';

const songs = numberArg('songs', 10000000);
const queries = numberArg('queries', 40);
const delay = numberArg('delay', 160);
const warmCount = numberArg('warm', 300);
const heavyTail = process.argv.includes('--heavy-tail');
const TARGET_MS = 50;
const log = (line) => console.error(`[bench:typing] ${line}`);
const chromiumPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p));
if (!chromiumPath) {
  console.error('bench:typing needs chromium (npm run setup:test installs it)');
  process.exit(2);
}

const { dist } = benchCatalog(songs, log, [], { heavyTail });
// What people type: a song's title (its first three words) or its artist's name, from the catalog.
const cat = Catalog.open(dist);
const typedFrom = (next, count) =>
  Array.from({ length: count }, (_, i) => {
    const song = cat.song(Math.floor(next() * cat.records('song').count));
    const text = i % 3 === 2 ? (song.artistNames[0] ?? song.name) : song.name;
    return text.split(/\s+/).slice(0, 3).join(' ').slice(0, 24);
  });
const typed = typedFrom(seeded(11), queries);
// `--warm N` (default 300): a server in service has answered searches before: N of other titles
// (another seed), every prefix of each, sent first, so the measured keystrokes find the common
// words' postings checked and their bitmaps made as a running server does. `--warm 0`: a cold one.
const warmTitles = typedFrom(seeded(12), warmCount);
cat.close();

const server = await startServer(dist, { port: 18520 });
for (const title of warmTitles)
  for (let n = 1; n <= title.length; n++) {
    const query = new URLSearchParams({ term: title.slice(0, n), types: 'song,album,artist,playlist', limit: '5' });
    if (query.get('term')?.trim()) await (await fetch(`${server.origin}/v1/search?${query}`)).arrayBuffer();
  }
const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
});
const measures = [];
try {
  const page = await browser.newPage();
  await page.route(/img\.example\.com/, (route) => route.abort('blockedbyclient'));
  await page.goto(`${server.origin}/`);
  const box = page.getByRole('combobox');
  // A running server is warm: one word typed first, its timings left out.
  await box.focus();
  await page.keyboard.type('warm up', { delay });
  await page.waitForFunction(() => performance.getEntriesByName('omm-search').length > 0, null, { timeout: 10_000 });
  for (const text of typed) {
    await box.fill('');
    await page.evaluate(() => performance.clearMeasures('omm-search'));
    await box.focus();
    await page.keyboard.type(text, { delay });
    // The last keystroke's search: wait for its measure (the box holds the whole text).
    // (Run in the page: the measures are PerformanceMeasure entries, whose detail holds the term.)
    await page.waitForFunction((t) => performance.getEntriesByName('omm-search').some((m) => /** @type {any} */ (m).detail?.term === t.trim()), text, {
      timeout: 10_000,
    });
    const own = await page.evaluate(() =>
      performance.getEntriesByName('omm-search').map((m) => ({ term: /** @type {any} */ (m).detail.term, ms: m.duration })),
    );
    measures.push(...own);
  }
} finally {
  await browser.close();
  await server.close();
}

const ms = measures.map((m) => m.ms).sort((a, b) => a - b);
const at = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
const slowest = [...measures].sort((a, b) => b.ms - a.ms).slice(0, 5);
const over = ms.filter((x) => x >= TARGET_MS).length;
console.log(
  `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${songs.toLocaleString('en-US')} songs${heavyTail ? ' with the heavy tail' : ''}; ${cpus().length} x ${cpus()[0].model}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}; Chromium ${browser.version()}; ${hasTaskset ? 'server on core 0' : 'no taskset'}`,
);
console.log(
  `${queries} titles and artist names typed a key every ${delay} ms, after ${warmTitles.length} other titles searched as typed: ${ms.length} keystrokes searched; round trip (the page's omm-search measure) p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, slowest ${ms.at(-1)?.toFixed(1)} ms; ${over} at ${TARGET_MS} ms or more (target: none)`,
);
console.log(`slowest: ${slowest.map((m) => `"${m.term}" ${m.ms.toFixed(1)} ms`).join(', ')}`);
process.exitCode = over > 0 ? 1 : 0;
