import { RecordTableWriter } from '../../index-format/tables/record-table-writer.js';
import type { WrittenShard } from '../../index-format/shards/shard-writer.js';
import { RAW_FILE_BY_NAME } from '../../raw/schema.js';
import { IssueLog, readRawFile } from '../raw-file.js';
import { rowBatches, runWorkerJob, type RowsDone } from '../worker-job.js';
import { EDGE_RECORD_OF, type EdgeRecordFile } from './edge-record-rows.js';
import { DECLARED_STRUCTURES, newRecordPackr, sharedStructureCount } from './record-packr.js';

/**
 * The files and lyrics tables are written by the first pass as it reads their rows
 * (parse-refs.ts). When the checks after it reject some of those rows (under --skip-invalid: a
 * file of an unknown song, a repeated file id), the table is written again from a second read,
 * skipping every rejected line: this job.
 */
export interface EdgeRecordsJob {
  readonly rawDir: string;
  readonly outDir: string;
  readonly buildId: string;
  readonly tables: readonly EdgeRecordFile[];
  /** Lines of the tables' raw files that were rejected. */
  readonly rejectedLines: Readonly<Record<string, readonly number[]>>;
}

/** Writes the job's tables from a second read of their raw files; `onRows` is told of rows done. */
export async function writeEdgeRecordTables(job: EdgeRecordsJob, onRows?: RowsDone): Promise<WrittenShard[]> {
  const packr = newRecordPackr();
  const log = IssueLog.skipping(job.rejectedLines);
  const shards: WrittenShard[] = [];
  const rows = rowBatches(onRows);
  for (const file of job.tables) {
    const writer = new RecordTableWriter(job.outDir, file, job.buildId, packr);
    const record = EDGE_RECORD_OF[file];
    await readRawFile(
      job.rawDir,
      RAW_FILE_BY_NAME.get(file)!,
      log,
      (row) => {
        writer.add(record(row));
        rows.tick();
      },
      { secondPass: true },
    );
    shards.push(...writer.finish());
  }
  rows.flush();
  // A record of another shape would have named a structure the compile's Packr does not have.
  if (sharedStructureCount(packr) !== DECLARED_STRUCTURES) throw new Error('edge records packed a structure that was not declared (record-packr.ts)');
  return shards;
}

/** Writes the job's tables on a worker thread (edge-records-worker.ts) while this one goes on. */
export function startEdgeRecords(job: EdgeRecordsJob, onRows?: RowsDone): Promise<WrittenShard[]> {
  return runWorkerJob('records', './edge-records-worker.js', import.meta.url, job, (here) => writeEdgeRecordTables(job, here), onRows);
}
