// A dist directory beside a bench snapshot whose current snapshot is that one plus one delta
// segment per day of changes (docs/segments.md): each day's raw catalog (src/generate/
// daily-changes.ts at DAILY_RATES) written with its change journal, as `omm import --into` leaves
// it, and compiled as a delta (`omm compile --delta`, the fast path) and in full, each timed as a
// child process. The last full compile is what compaction would give: bench:load --segments
// serves both side by side.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { applyDailyChanges, DAILY_RATES, readRawTables, writeRawTables } from '../../dist/generate/daily-changes.js';
import { rawChanges, writeJournal } from '../../dist/generate/raw-changes.js';
import { timedOmm } from '../omm-runs.mjs';
import { linkedDist } from './takedown-dist.mjs';

/** `dist`'s snapshot plus `days` deltas in `to`, and the full compile of the last day in `compacted`. */
export async function segmentedDist(dist, raw, days, { to, compacted, scratch, log }) {
  linkedDist(dist, to);
  let tables = readRawTables(raw);
  let previous = raw;
  const deltas = [];
  for (let day = 1; day <= days; day++) {
    const after = applyDailyChanges(tables, day, DAILY_RATES);
    const dayRaw = join(scratch, `day${day}`);
    rmSync(dayRaw, { recursive: true, force: true });
    mkdirSync(dayRaw, { recursive: true });
    writeRawTables(after, dayRaw);
    writeJournal(dayRaw, previous, rawChanges(tables, after));
    if (previous !== raw) rmSync(previous, { recursive: true, force: true });
    [tables, previous] = [after, dayRaw];
    const delta = await timedOmm(['compile', dayRaw, '-o', to, '--delta', '--keep', String(days + 1)]);
    rmSync(compacted, { recursive: true, force: true });
    const full = await timedOmm(['compile', dayRaw, '-o', compacted, '-q']);
    const held = /holds +(.*)/.exec(delta.stdout)?.[1] ?? '';
    const wrote = /wrote +(.*)/.exec(delta.stdout)?.[1] ?? '';
    const phases = /phases +(.*)/.exec(delta.stdout)?.[1] ?? '';
    const compiled = /compiled +([\d,]+ songs)/.exec(delta.stdout)?.[1] ?? '';
    const entry = {
      day,
      deltaSeconds: +delta.seconds.toFixed(1),
      deltaPeakAnonMiB: delta.peakAnonMiB,
      fullSeconds: +full.seconds.toFixed(1),
      fullPeakAnonMiB: full.peakAnonMiB,
      held,
      compiled,
      wrote,
      phases,
    };
    deltas.push(entry);
    log(
      `day ${day}: delta compile ${entry.deltaSeconds} s, peak anon ${entry.deltaPeakAnonMiB} MiB (full compile ${entry.fullSeconds} s, ${entry.fullPeakAnonMiB} MiB, ratio ${(delta.seconds / full.seconds).toFixed(3)}); holds ${held}; compiled ${compiled}; wrote ${wrote}; ${phases}`,
    );
  }
  rmSync(scratch, { recursive: true, force: true });
  return deltas;
}
