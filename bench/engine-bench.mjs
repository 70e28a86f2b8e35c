#!/usr/bin/env node
// Engine benchmark for the out-of-core compile (issue 19, docs/scale.md): a slice of the
// first pass done both ways on a generated catalog. It reads artists.csv, songs.csv and
// song_artists.csv, finds duplicate ids, and resolves every credit row's song_id and artist_id to
// ordinals in row order (dangling ones counted).
// - ours: the ids go through ExternalSorter (src/sort/external-sort.ts) and are
//   merge-joined;
// - duckdb: the same rows go in through the appender, and SQL checks and joins them,
//   the answer streamed back.
// Both share the CSV parsing, which is timed alone first. Memory: 256 MiB for either engine.
// DuckDB is installed into bench/.deps (not a project dependency).
// - ours-hash: the ids as 64-bit hashes in FixedSorter (src/sort/fixed-sort.ts), merge-joined
//   (a real compile would check equal hashes against the ids; none collide here);
// Usage: node bench/engine-bench.mjs [--songs 1000000] [--engines ours,ours-hash,duckdb] [--budget-mib 256]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ExternalSorter } from '../dist/sort/external-sort.js';
import { FixedSorter } from '../dist/sort/fixed-sort.js';
import { streamCsvRows } from '../dist/raw/csv-rows.js';
import { arg, numberArg } from './cli-args.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const songs = numberArg('songs', '1000000');
const engines = arg('engines', 'ours,ours-hash,duckdb').split(',');
const budget = numberArg('budget-mib', '256') * 2 ** 20;
const raw = join(root, 'bench', '.data', `raw-${songs}-1`);
const depsDir = join(root, 'bench', '.deps');
const DUCKDB = '@duckdb/node-api@1.5.6-r.1';
if (!existsSync(join(raw, 'songs.csv')))
  execFileSync(process.execPath, [join(root, 'bin', 'omm'), 'generate', '--songs', String(songs), '--seed', '1', '--out', raw], { stdio: 'inherit' });

let peak = 0;
const sampleRss = () => (peak = Math.max(peak, process.memoryUsage.rss()));
setInterval(sampleRss, 50).unref();
const measure = async (name, run) => {
  global.gc?.();
  peak = process.memoryUsage.rss();
  const t = performance.now();
  const out = await run();
  sampleRss();
  const row = { step: name, seconds: +((performance.now() - t) / 1000).toFixed(2), peakRssMiB: Math.round(peak / 2 ** 20), ...out };
  console.log(JSON.stringify(row));
  return row;
};

/** Streams a CSV's rows to `onRow(cells, rowNumber)` (header skipped). */
async function rows(file, onRow) {
  let n = -1;
  await streamCsvRows(join(raw, file), ({ cells }) => {
    if (n >= 0) onRow(cells, n);
    n++;
  });
  return n;
}

const parsed = await measure('parse only (shared by both)', async () => ({
  rows: (await rows('artists.csv', () => {})) + (await rows('songs.csv', () => {})) + (await rows('song_artists.csv', () => {})),
}));

if (engines.includes('ours')) {
  await measure('ours: ExternalSorter', async () => {
    const dir = mkdtempSync(join(root, 'bench', '.data', 'spill-'));
    try {
      const key = Buffer.alloc(1024);
      const u32 = Buffer.alloc(4);
      const add = (sorter, text, n) => {
        u32.writeUInt32BE(n);
        sorter.add(key.subarray(0, key.write(text, 0)), u32);
      };
      // Per entity: (id, ordinal) sorted by id gives duplicates as neighbours and the join's other side.
      const idsOf = async (file, name) => {
        const sorter = new ExternalSorter(dir, name, budget / 4);
        const count = await rows(file, (cells, n) => add(sorter, cells[0], n));
        return { sorter, count };
      };
      const artists = await idsOf('artists.csv', 'artists');
      const songIds = await idsOf('songs.csv', 'songs');
      const bySong = new ExternalSorter(dir, 'credits-song', budget / 4);
      const byArtist = new ExternalSorter(dir, 'credits-artist', budget / 4);
      const credits = await rows('song_artists.csv', (cells, n) => {
        add(bySong, cells[0], n);
        add(byArtist, cells[1], n);
      });
      // Resolved ordinals land in row order through one more sort: (row, ordinal).
      let duplicates = 0;
      let dangling = 0;
      const resolve = (ids, refs, name) => {
        const resolved = new ExternalSorter(dir, `${name}-resolved`, budget / 4);
        // Both streams sorted by id: walk the ids forward as the references advance.
        const idRecords = ids.sorter.sorted();
        let current = idRecords.next();
        const last = Buffer.alloc(1024);
        let lastLength = -1;
        const advance = () => {
          const k = current.value.key;
          if (lastLength === k.length && k.compare(last, 0, lastLength) === 0) duplicates++;
          lastLength = k.copy(last);
          current = idRecords.next();
        };
        const pair = Buffer.alloc(8);
        refs.drain((buffer, keyStart, keyEnd) => {
          let c = 1;
          while (!current.done && (c = current.value.key.compare(buffer, keyStart, keyEnd)) < 0) advance();
          if (!current.done && c === 0) {
            pair.writeUInt32BE(buffer.readUInt32BE(keyEnd), 0);
            pair.writeUInt32BE(current.value.value.readUInt32BE(0), 4);
            resolved.add(pair.subarray(0, 4), pair.subarray(4));
          } else dangling++;
        });
        while (!current.done) advance();
        let count = 0;
        resolved.drain(() => count++);
        return count;
      };
      const songSide = resolve(songIds, bySong, 'songs');
      const artistSide = resolve(artists, byArtist, 'artists');
      return { credits, resolved: songSide + artistSide, dangling, duplicates };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** A 64-bit hash of a string in two 32-bit lanes (FNV-1a and a multiplicative mix), into hashHi/hashLo. */
let hashHi = 0;
let hashLo = 0;
function hash64(text) {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 16777619);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  hashHi = a >>> 0;
  hashLo = b >>> 0;
}

if (engines.includes('ours-hash')) {
  await measure('ours-hash: FixedSorter on 64-bit id hashes', async () => {
    const dir = mkdtempSync(join(root, 'bench', '.data', 'spill-'));
    try {
      const sorterOf = async (file, name, column) => {
        const sorter = new FixedSorter(dir, name, 3, 2, budget / 4);
        await rows(file, (cells, n) => {
          hash64(cells[column]);
          sorter.add(hashHi, hashLo, n);
        });
        return sorter;
      };
      const artists = await sorterOf('artists.csv', 'artists', 0);
      const songIds = await sorterOf('songs.csv', 'songs', 0);
      const bySong = new FixedSorter(dir, 'credits-song', 3, 2, budget / 4);
      const byArtist = new FixedSorter(dir, 'credits-artist', 3, 2, budget / 4);
      const credits = await rows('song_artists.csv', (cells, n) => {
        hash64(cells[0]);
        bySong.add(hashHi, hashLo, n);
        hash64(cells[1]);
        byArtist.add(hashHi, hashLo, n);
      });
      let duplicates = 0;
      let dangling = 0;
      const resolve = (ids, refs, name) => {
        const resolved = new FixedSorter(dir, `${name}-resolved`, 2, 1, budget / 4);
        const id = ids.cursor();
        let more = id.next();
        let lastHi = -1;
        let lastLo = -1;
        refs.drain((w, at) => {
          const hi = w[at];
          const lo = w[at + 1];
          while (more && (id.words[id.at] < hi || (id.words[id.at] === hi && id.words[id.at + 1] < lo))) {
            if (id.words[id.at] === lastHi && id.words[id.at + 1] === lastLo) duplicates++;
            lastHi = id.words[id.at];
            lastLo = id.words[id.at + 1];
            more = id.next();
          }
          if (more && id.words[id.at] === hi && id.words[id.at + 1] === lo) resolved.add(w[at + 2], id.words[id.at + 2]);
          else dangling++;
        });
        while (more) {
          if (id.words[id.at] === lastHi && id.words[id.at + 1] === lastLo) duplicates++;
          lastHi = id.words[id.at];
          lastLo = id.words[id.at + 1];
          more = id.next();
        }
        id.close();
        let count = 0;
        resolved.drain(() => count++);
        return count;
      };
      const songSide = resolve(songIds, bySong, 'songs');
      const artistSide = resolve(artists, byArtist, 'artists');
      return { credits, resolved: songSide + artistSide, dangling, duplicates };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

if (engines.includes('duckdb')) {
  if (!existsSync(join(depsDir, 'node_modules', '@duckdb', 'node-api', 'package.json'))) {
    mkdirSync(depsDir, { recursive: true });
    if (!existsSync(join(depsDir, 'package.json')))
      writeFileSync(join(depsDir, 'package.json'), JSON.stringify({ name: 'omm-bench-peer-deps', private: true }, null, 2));
    console.error(`installing ${DUCKDB} into ${depsDir} (once)`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', depsDir, DUCKDB], { stdio: 'inherit' });
  }
  const { DuckDBInstance } = createRequire(join(depsDir, 'package.json'))('@duckdb/node-api');
  await measure('duckdb: appender + SQL', async () => {
    const dir = mkdtempSync(join(root, 'bench', '.data', 'spill-'));
    try {
      const instance = await DuckDBInstance.create(':memory:', { memory_limit: `${budget / 2 ** 20}MB`, threads: '2', temp_directory: dir });
      const c = await instance.connect();
      await c.run(
        'CREATE TABLE artists (id VARCHAR, o UINTEGER); CREATE TABLE songs (id VARCHAR, o UINTEGER); CREATE TABLE credits (song VARCHAR, artist VARCHAR, r UINTEGER)',
      );
      const load = async (table, file, columns) => {
        const a = await c.createAppender(table);
        const count = await rows(file, (cells, n) => {
          for (const i of columns) a.appendVarchar(cells[i]);
          a.appendUInteger(n);
          a.endRow();
        });
        a.closeSync();
        return count;
      };
      await load('artists', 'artists.csv', [0]);
      await load('songs', 'songs.csv', [0]);
      const credits = await load('credits', 'song_artists.csv', [0, 1]);
      const dupes = await c.runAndReadAll(
        'SELECT (SELECT count(*) - count(DISTINCT id) FROM artists) + (SELECT count(*) - count(DISTINCT id) FROM songs) AS d',
      );
      const duplicates = Number(dupes.getRows()[0][0]);
      const result = await c.stream('SELECT s.o, a.o FROM credits c LEFT JOIN songs s ON s.id = c.song LEFT JOIN artists a ON a.id = c.artist ORDER BY c.r');
      let resolved = 0;
      let dangling = 0;
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        for (const column of [chunk.getColumnValues(0), chunk.getColumnValues(1)]) {
          for (const v of column) v === null ? dangling++ : resolved++;
        }
      }
      c.closeSync?.();
      return { credits, resolved, dangling, duplicates };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
console.error(`parsing alone: ${parsed.seconds} s for ${parsed.rows.toLocaleString('en-US')} rows`);
process.exit(0);
