#!/usr/bin/env node
// Import benchmark (issue 21): generates N songs as a DDEX delivery (one ERN 4.3 message per
// album, then updates and takedowns) and as MusicBrainz JSON dumps (`omm generate --format`),
// into bench/.data (reused when a finished one is there), then runs `omm import ddex` and
// `omm import musicbrainz` on them as child processes: wall time, CPU time of the whole process
// tree, tracks/s, and peak RSS of the tree summed from /proc every 100 ms (anonymous and total).
// Each import is then compiled and its song count checked against what the generator says the
// import keeps (a DDEX recording is its ISRC; a taken-down album's songs are gone).
// Usage: npm run bench:import -- [--songs 1000000] [--seed 1] [--formats ddex,musicbrainz]
//   [--memory 160m] (the imports' --memory) [--record] (append a row per format to
//   docs/benchmarks.md, section "Import") [--keep] (keep the generated input; the imported and
//   compiled output is always removed)
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../dist/catalog/catalog.js';
import { arg, numberArg } from './cli-args.mjs';
import { dirBytes, generatedInput, timedOmm, work } from './omm-runs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const songs = numberArg('songs', '1000000');
const seed = numberArg('seed', '1');
const formats = arg('formats', 'ddex,musicbrainz').split(',').filter(Boolean);
const memory = arg('memory', null);
const keep = process.argv.includes('--keep');
const record = process.argv.includes('--record');
const log = (line) => console.error(`[bench:import] ${line}`);
for (const f of formats) if (f !== 'ddex' && f !== 'musicbrainz') throw new Error(`--formats: ${f} is not ddex or musicbrainz`);
if (!Number.isInteger(songs) || songs < 1) throw new Error(`--songs must be a positive integer`);

const results = [];
for (const format of formats) {
  const { dir, summary } = await generatedInput(format, songs, seed, log);
  const inputBytes = dirBytes(dir);
  const raw = join(work, `import-${format}-${songs}-${seed}-raw`);
  const dist = join(work, `import-${format}-${songs}-${seed}-dist`);
  rmSync(raw, { recursive: true, force: true });
  rmSync(dist, { recursive: true, force: true });
  try {
    const importArgs = ['import', format, dir, '--out', raw, ...(memory ? ['--memory', memory] : [])];
    log(`${format}: omm ${importArgs.join(' ')}`);
    const run = await timedOmm(importArgs);
    // Tracks read, update messages included (the import's own count); else the generator's.
    const staged = /with ([\d,]+) track\(s\)/.exec(run.stdout);
    const tracks = staged ? Number(staged[1].replace(/,/g, '')) : (summary.rows.tracks ?? summary.rows['sound recordings']);
    log(`${format}: compiling the import`);
    const compile = await timedOmm(['compile', raw, '--out', dist]);
    const cat = Catalog.open(dist);
    const songsCompiled = cat.count('song');
    cat.close();
    const expected = summary.rows['songs once imported'];
    if (songsCompiled !== expected) throw new Error(`${format}: the compiled import has ${songsCompiled} songs; the generator said ${expected}`);
    results.push({
      format,
      songs,
      inputGiB: Math.round((inputBytes / 2 ** 30) * 100) / 100,
      inputFiles: format === 'ddex' ? summary.rows.messages + summary.rows.updates + summary.rows.takedowns : 2,
      seconds: Math.round(run.seconds * 10) / 10,
      cpuSeconds: Math.round(run.cpuSeconds * 10) / 10,
      tracks,
      tracksPerSecond: Math.round(tracks / run.seconds),
      peakAnonMiB: run.peakAnonMiB,
      peakRssMiB: run.peakRssMiB,
      songsCompiled,
      compileSeconds: Math.round(compile.seconds * 10) / 10,
      command: `omm ${importArgs.slice(0, 2).join(' ')} <dir> --out <raw>${memory ? ` --memory ${memory}` : ''}`,
    });
  } finally {
    rmSync(raw, { recursive: true, force: true });
    rmSync(dist, { recursive: true, force: true });
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

const machine = `${cpus().length} x ${cpus()[0].model}, ${Math.round(totalmem() / 2 ** 30)} GiB`;
const date = new Date().toISOString().slice(0, 10);
console.log(JSON.stringify({ date, machine, node: process.version, results }, null, 2));

if (record) {
  const doc = join(root, 'docs', 'benchmarks.md');
  const marker = '<!-- bench:import appends rows above this line -->';
  let text = readFileSync(doc, 'utf8');
  if (!text.includes(marker)) {
    text += `\n## Import (\`npm run bench:import\`, issue 21)\n\nbench/import-bench.mjs generates N songs (\`omm generate --format ddex|musicbrainz\`: a DDEX delivery of one ERN 4.3 message per album and compilation plus updates for ~1% and takedowns for ~0.5% of albums, and MusicBrainz JSON-lines dumps \`mbdump/release\` and \`mbdump/artist\`), imports each with \`omm import\` as a child process, then compiles the import and checks its song count. Time is the import's wall time from spawn to exit; CPU is user + system of its process tree; tracks/s is tracks read (update messages included) per wall second; memory is the tree's peak, summed from /proc every 100 ms: anonymous (its own) and total resident. Each run appends a row per format.\n\n| date | machine | Node | command | songs | input GiB (files) | import s | CPU s | tracks/s | peak anon / total MiB | songs compiled |\n|---|---|---|---|---|---|---|---|---|---|---|\n${marker}\n`;
  }
  const rows = results.map(
    (r) =>
      `| ${date} | ${machine} | ${process.version} | \`${r.command}\` | ${r.songs.toLocaleString('en-US')} | ${r.inputGiB} (${r.inputFiles.toLocaleString('en-US')}) | ${r.seconds} | ${r.cpuSeconds} | ${r.tracksPerSecond.toLocaleString('en-US')} | ${r.peakAnonMiB.toLocaleString('en-US')} / ${r.peakRssMiB.toLocaleString('en-US')} | ${r.songsCompiled.toLocaleString('en-US')} |`,
  );
  writeFileSync(doc, text.replace(marker, `${rows.join('\n')}\n${marker}`));
  log('rows appended to docs/benchmarks.md');
}
