import { ImportError } from '../import-error.js';
import { CatalogStage, type StageCounts } from './catalog-stage.js';
import { ImportProgress, inputBytes } from './import-progress.js';
import { ImportWorkDir } from './output-dir.js';
import { openStageState, type StageStateRuns } from './stage-state.js';
import { ChangeJournalWriter } from '../../raw/change-journal.js';
import type { CatalogSink, ImportReport } from './staged.js';

/** The sorters' memory when none is given: an import of 1M tracks peaked near 250 MiB with it (docs/benchmarks.md). */
export const DEFAULT_IMPORT_MEMORY = 96 * 1024 * 1024;
/** Skips and warnings kept word for word in the summary (all are counted). */
const KEPT_MESSAGES = 100;

export interface StreamedImportOptions {
  /** The raw catalog directory to write; replaced only when the import succeeds. */
  readonly out: string;
  /**
   * Apply the inputs to the raw catalog already in `out` (which a streamed import wrote) instead
   * of replacing it: the result is the one importing every delivery it holds and these at once gives.
   */
  readonly into?: boolean;
  /** The inputs, for the progress bar's total. */
  readonly inputs?: readonly string[];
  /** Fail on the first item that would be skipped. */
  readonly strict?: boolean;
  /** Bytes the sorters may hold before spilling to disk. */
  readonly memoryBytes?: number;
  /** The import state's recent runs are folded into the first past this part of it (state-layers.ts FOLD_FRACTION; tests set Infinity to keep them). */
  readonly foldFraction?: number;
  /** Where progress goes (drawn only on a TTY); null for none. */
  readonly progress?: NodeJS.WriteStream | null;
}

export interface StreamedImportSummary extends StageCounts {
  readonly outDir: string;
  /** Whether the inputs were applied to the raw catalog already there (--into). */
  readonly into: boolean;
  /** Units read by kind (`message`, `line`). */
  readonly units: Record<string, number>;
  readonly bytesRead: number;
  readonly skipped: number;
  /** Skips counted by reason. */
  readonly skippedBy: Record<string, number>;
  /** The first skips and warnings, word for word. */
  readonly skips: string[];
  readonly warnings: string[];
  readonly warningCount: number;
  readonly seconds: number;
}

/** Collects what readers report; under `strict`, a skip is an error. */
class Report implements ImportReport {
  readonly units: Record<string, number> = {};
  bytes = 0;
  skipped = 0;
  readonly skippedBy: Record<string, number> = {};
  readonly skips: string[] = [];
  readonly warnings: string[] = [];
  warningCount = 0;

  constructor(
    private readonly strict: boolean,
    private readonly progress: ImportProgress,
  ) {}

  skip(where: string, item: string, reason: string): void {
    if (this.strict) throw new ImportError('E_IMPORT_SKIPPED', { file: where }, `${item}: ${reason} (--strict fails instead of skipping)`);
    this.skipped++;
    this.skippedBy[reason] = (this.skippedBy[reason] ?? 0) + 1;
    if (this.skips.length < KEPT_MESSAGES) this.skips.push(`${where}: ${item} skipped: ${reason}`);
  }

  warn(where: string, message: string): void {
    this.warningCount++;
    if (this.warnings.length < KEPT_MESSAGES) this.warnings.push(`${where}: ${message}`);
  }

  unit(kind: string, bytes: number): void {
    this.units[kind] = (this.units[kind] ?? 0) + 1;
    this.bytes += bytes;
    this.progress.add(bytes);
  }
}

/**
 * Runs a streamed importer: `read` puts what it reads into an out-of-core catalog stage, which
 * then writes the raw CSV into a work directory beside `out`; the work directory replaces `out`
 * only when everything succeeded. On any error nothing is published and the work directory
 * (spilled runs and partial CSV) is removed.
 */
export async function runStreamedImport(
  what: string,
  options: StreamedImportOptions,
  read: (sink: CatalogSink, report: ImportReport) => Promise<void>,
): Promise<StreamedImportSummary> {
  const started = Date.now();
  const progress = new ImportProgress(
    what,
    options.inputs ? await inputBytes(options.inputs) : 0,
    options.progress === undefined ? process.stderr : options.progress,
  );
  // The work directory first: making it puts back an output a killed import left aside.
  const work = new ImportWorkDir(options.out);
  let previous: StageStateRuns | null;
  try {
    previous = options.into ? openStageState(options.out) : null;
  } catch (err) {
    work.remove();
    progress.done();
    throw err;
  }
  const report = new Report(options.strict ?? false, progress);
  const stage = new CatalogStage(work.spill, options.memoryBytes ?? DEFAULT_IMPORT_MEMORY, report, previous, options.foldFraction);
  try {
    await read(stage, report);
    progress.phase('writing raw CSV in id order');
    // An import applied to a previous one says what it changed (change-journal.ts).
    const counts = stage.finish(work.raw, options.into ? new ChangeJournalWriter(work.raw, options.out) : null);
    work.publish();
    return {
      ...counts,
      outDir: options.out,
      into: options.into ?? false,
      units: report.units,
      bytesRead: report.bytes,
      skipped: report.skipped,
      skippedBy: report.skippedBy,
      skips: report.skips,
      warnings: report.warnings,
      warningCount: report.warningCount,
      seconds: (Date.now() - started) / 1000,
    };
  } catch (err) {
    stage.dispose();
    work.remove();
    throw err;
  } finally {
    progress.done();
  }
}
