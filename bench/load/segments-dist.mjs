// A dist directory beside a bench snapshot whose current snapshot is that one plus one delta
// segment per day of changes (docs/segments.md): each day's raw catalog (src/generate/
// daily-changes.ts at DAILY_RATES) compiled in full, then published as a delta over the
// segmented dist (publishDelta, the reference delta). The last full compile is what compaction
// would give: bench:load --segments serves both side by side.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../../dist/catalog/catalog.js';
import { publishDelta } from '../../dist/compile/delta/publish-delta.js';
import { applyDailyChanges, DAILY_RATES, readRawTables, writeRawTables } from '../../dist/generate/daily-changes.js';
import { linkedDist } from './takedown-dist.mjs';

const omm = fileURLToPath(new URL('../../bin/omm', import.meta.url));

/** `dist`'s snapshot plus `days` deltas in `to`, and the full compile of the last day in `compacted`. */
export function segmentedDist(dist, raw, days, { to, compacted, scratch, log }) {
  linkedDist(dist, to);
  let tables = readRawTables(raw);
  const deltas = [];
  for (let day = 1; day <= days; day++) {
    tables = applyDailyChanges(tables, day, DAILY_RATES);
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    writeRawTables(tables, scratch);
    rmSync(compacted, { recursive: true, force: true });
    execFileSync(process.execPath, [omm, 'compile', scratch, '-o', compacted, '-q'], { stdio: 'inherit' });
    const next = Catalog.open(compacted, { searchable: false });
    const started = performance.now();
    try {
      const published = publishDelta(to, next, days + 1);
      const held = published ? published.plan.song.held.length : 0;
      const entry = { day, bytes: published?.bytesWritten ?? 0, songsHeld: held, ms: Math.round(performance.now() - started) };
      deltas.push(entry);
      log(`day ${day}: delta of ${held} songs, ${entry.bytes} bytes, in ${entry.ms} ms`);
    } finally {
      next.close();
    }
  }
  rmSync(scratch, { recursive: true, force: true });
  return deltas;
}
