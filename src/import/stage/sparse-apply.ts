import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeJournalWriter } from '../../raw/change-journal.js';
import type { RawFileName } from '../../raw/schema.js';
import { writeFileFacts } from '../../raw/file-facts.js';
import type { ExternalSorter } from '../../sort/external-sort.js';
import { spliceCsv } from './csv-splice.js';
import { RawWriters } from './raw-writers.js';
import type { StageRecordWriter } from './stage-keys.js';
import { type StageCounts, type StageOutput, writeStage } from './stage-output.js';
import { STAGE_SORTERS, STATE_DIR, type StageSorterName, type StageStateRuns, StageStateWriter, type StateFile, writeStateManifest } from './stage-state.js';
import { extractLayered, writeLayered } from './state-layers.js';
import type { TouchedIds } from './touched-ids.js';

/*
 * A delivery applied to a previous import (--into) id by id. The full merge reads every record of
 * the previous state through the stage and writes every row again; this reads, for each sorter in
 * turn, only the state of the ids the delivery touches (the albums it delivers, then the songs
 * and artists those albums and songs name now or named before), runs the stage's own steps over
 * them, and splices what they write into the previous raw files (every other row copied as its
 * bytes lie) and into the state's recent runs (state-layers.ts). The bytes are those of the full merge (import-into.test.ts
 * checks them against importing everything at once); the work that parses, sorts and encodes is
 * in proportion to the delivery, and what is left in proportion to the catalog is copying.
 */

/** The raw files whose rows a sorter's ids own: an album's row, credits and tracks; a song's row and credits; an artist's row. */
const FILES_OF: Readonly<Record<StageSorterName, readonly RawFileName[]>> = {
  albums: ['albums', 'album_artists', 'album_tracks'],
  songs: ['songs', 'song_artists'],
  artists: ['artists'],
};

export interface SparseApply {
  readonly sorters: Readonly<Record<StageSorterName, ExternalSorter>>;
  readonly keys: StageRecordWriter;
  readonly counts: StageCounts;
  readonly previous: StageStateRuns;
  readonly touched: TouchedIds;
  /** Where the touched ids' rows and state are written before they are spliced (removed with the import's work directory). */
  readonly workDir: string;
  /** When the state's recent run is folded into the first (state-layers.ts). */
  readonly foldFraction: number;
}

/** Writes into `dir` the raw catalog and state of the previous import with the delivery the sorters hold applied. */
export function applySparse(apply: SparseApply, dir: string, journal: ChangeJournalWriter | null): void {
  const { sorters, previous, touched, counts } = apply;
  const rowsDir = join(apply.workDir, 'rows');
  const stateDir = join(apply.workDir, 'state');
  const writers = new RawWriters(rowsDir);
  const state = new StageStateWriter(stateDir, apply.keys);
  const out: StageOutput = { ...sorters, keys: apply.keys, counts, state, journal, writer: writers.writer, touched, previouslyLive: 0 };
  const ids = new Map<StageSorterName, Buffer[]>();
  /** The previous state of a sorter's touched ids, merged into it; its ids are final once the sorters before it were written. */
  const pick = (sorter: StageSorterName) => {
    const sorted = touched.sorted(sorter);
    ids.set(sorter, sorted);
    for (const path of extractLayered(previous, sorter, sorted, apply.workDir)) sorters[sorter].mergeWith(path);
  };
  try {
    writeStage(out, pick);
  } finally {
    writers.close();
  }
  state.closeRuns();
  mkdirSync(join(dir, STATE_DIR), { recursive: true });
  const files: Record<string, StateFile & { rows: number }> = {};
  const recent: StageSorterName[] = [];
  for (const sorter of STAGE_SORTERS) {
    const touchedIds = ids.get(sorter)!;
    for (const file of FILES_OF[sorter]) {
      const name = `${file}.csv`;
      const spliced = spliceCsv(join(previous.rawDir, name), join(rowsDir, name), touchedIds, join(dir, name));
      files[name] = spliced;
      counts.rows[file] = spliced.rows;
      if (file === 'albums') counts.releasesUnchanged += spliced.oldRows - out.previouslyLive;
    }
    if (writeLayered(previous, sorter, state.runPath(sorter), touchedIds, dir, apply.foldFraction)) recent.push(sorter);
  }
  writeStateManifest(dir, files, recent);
  journal?.finish();
  writeFileFacts(dir, files);
}
