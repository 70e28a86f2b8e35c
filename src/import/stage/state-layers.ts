import { copyFileSync, linkSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { RECORD_HEAD } from '../../sort/arena-key-sort.js';
import { RunReader, RunWriter } from '../../sort/run-files.js';
import { KEY_TAIL } from './stage-keys.js';
import { recentRunPath, STATE_DIR, type StageSorterName, type StageStateRuns } from './stage-state.js';
import { extractState, spliceRun } from './state-splice.js';

/*
 * The import state in two layers (stage-state.ts): the runs a whole import wrote, and a recent run
 * per sorter holding the whole state of every id touched since. An import applied id by id reads
 * a touched id from the recent run when it is there, else from the first; it rewrites the recent
 * run alone and links the first into the new raw catalog unchanged. When the recent run has grown
 * past a quarter of the first, the two are folded into one: an id's records in the recent run
 * replace its records in the first. So a delivery's work on the state is in proportion to what
 * was delivered since the last fold, and a fold, in proportion to the catalog, comes once in a
 * while (after about a quarter of the catalog has been touched).
 */

/** The recent run is folded into the first once it is larger than this part of it. */
export const FOLD_FRACTION = 0.25;

/**
 * The previous state of `touched` (sorted as bytes) in `sorter`, as run files to merge into the
 * stage's sorter: the recent run's records of the ids it holds, the first run's of the others.
 */
export function extractLayered(previous: StageStateRuns, sorter: StageSorterName, touched: readonly Buffer[], workDir: string): string[] {
  const recent = previous.recent[sorter];
  const fromRecent = join(workDir, `previous-${sorter}.recent.run`);
  const fromFirst = join(workDir, `previous-${sorter}.run`);
  if (!recent) {
    extractState(previous[sorter], touched, fromFirst);
    return [fromFirst];
  }
  const found = new Set(extractState(recent, touched, fromRecent));
  extractState(
    previous[sorter],
    touched.filter((id) => !found.has(id)),
    fromFirst,
  );
  return [fromRecent, fromFirst];
}

/**
 * Writes the state of `sorter` into the raw catalog `dir`: the previous recent run with the
 * touched ids' records replaced by `newRun`'s, the first run linked as it was; or both folded into
 * a new first run when the recent one has grown past FOLD_FRACTION of it. Whether a recent run
 * was left.
 */
export function writeLayered(
  previous: StageStateRuns,
  sorter: StageSorterName,
  newRun: string,
  touched: readonly Buffer[],
  dir: string,
  foldFraction = FOLD_FRACTION,
): boolean {
  const first = join(dir, STATE_DIR, `${sorter}.run`);
  const recent = recentRunPath(dir, sorter);
  spliceRun(previous.recent[sorter] ?? null, newRun, touched, recent);
  if (statSync(recent).size > statSync(previous[sorter]).size * foldFraction) {
    foldRuns(previous[sorter], recent, first);
    unlinkSync(recent);
    return false;
  }
  try {
    linkSync(previous[sorter], first);
  } catch {
    copyFileSync(previous[sorter], first);
  }
  return true;
}

/** The run to merge for the whole previous state of `sorter`: the first run, or it and the recent run folded into `workDir`. */
export function foldedRun(previous: StageStateRuns, sorter: StageSorterName, workDir: string): string {
  const recent = previous.recent[sorter];
  if (!recent) return previous[sorter];
  const out = join(workDir, `folded-${sorter}.run`);
  foldRuns(previous[sorter], recent, out);
  return out;
}

/** Compares the ids (keys up to the 0x00 before the version) of the records two readers are at. */
function compareIds(a: RunReader, b: RunReader): number {
  const x = a.buffer!;
  const y = b.buffer!;
  return x.compare(y, b.keyStart, b.keyEnd - KEY_TAIL, a.keyStart, a.keyEnd - KEY_TAIL);
}

/** Writes to `outPath` the records of `firstRun`, those of every id `recentRun` holds replaced by its records there. */
export function foldRuns(firstRun: string, recentRun: string, outPath: string): void {
  const writer = new RunWriter(outPath);
  const first = new RunReader(firstRun);
  const recent = new RunReader(recentRun);
  const copy = (r: RunReader) => {
    writer.add(r.buffer!, r.keyStart - RECORD_HEAD, r.valueEnd);
    r.next();
  };
  try {
    while (first.buffer !== null && recent.buffer !== null) {
      const order = compareIds(first, recent);
      if (order < 0) copy(first);
      else if (order > 0) copy(recent);
      else {
        // The id's records in the first run give way; the recent run's follow as they come.
        const id = Buffer.from(first.buffer.subarray(first.keyStart, first.keyEnd - KEY_TAIL));
        while (first.buffer !== null && first.buffer.compare(id, 0, id.length, first.keyStart, first.keyEnd - KEY_TAIL) === 0) first.next();
      }
    }
    while (first.buffer !== null) copy(first);
    while (recent.buffer !== null) copy(recent);
  } finally {
    first.close();
    recent.close();
    writer.close();
  }
}
