import { RAW_FILE_BY_NAME } from '../../raw/schema.js';
import type { RawIssue } from '../compile-error.js';
import { IssueLog, readRawFile, type RawFileRead, type RejectedRow } from '../raw-file.js';
import { NumberColumnWriter, StringColumnWriter } from '../spill/columns.js';
import { rowBatches, runWorkerJob, type RowsDone } from '../worker-job.js';
import { hashId, idHash } from './id-hash.js';
import { MAX_ROWS, refKind, ROW_BITS } from './raw-refs.js';

/**
 * files.csv, the largest raw file, is read and checked on a worker thread while the first pass
 * reads the others (parse-raw.ts). What the first pass keeps of it is written to files: its
 * columns, and the records it would have added to two sorters (the song each row names, and the
 * row's own id), which the first pass adds once it has read its own files. Plain data in and out,
 * so it can cross to a worker.
 */
export interface ParseFilesJob {
  readonly dir: string;
  readonly paths: {
    /** u32 per accepted row: its line. */
    readonly lines: string;
    readonly ids: string;
    readonly preferred: string;
    /** u32 x 4 per accepted row: the song id's hash, kind << 29 | row (for the songs' id sorter). */
    readonly songRefs: string;
    /** u32 x 4 per accepted row: the row's id hash, row (for the file id sorter). */
    readonly fileIds: string;
  };
}

export interface ParsedFiles {
  readonly read: RawFileRead;
  readonly rows: number;
  /** Issues with the file as a whole, and rows rejected, for the compile's IssueLog. */
  readonly fileIssues: RawIssue[];
  readonly rejected: RejectedRow[];
}

export async function parseFilesCsv(job: ParseFilesJob, onRows?: RowsDone): Promise<ParsedFiles> {
  const log = new IssueLog(Number.MAX_SAFE_INTEGER);
  const lines = new NumberColumnWriter(job.paths.lines, 'u32');
  const ids = new StringColumnWriter(job.paths.ids);
  const preferred = new NumberColumnWriter(job.paths.preferred, 'u32');
  const songRefs = new NumberColumnWriter(job.paths.songRefs, 'u32');
  const fileIds = new NumberColumnWriter(job.paths.fileIds, 'u32');
  const kind = refKind('songs', 'files', 'song_id') << ROW_BITS;
  const rows = rowBatches(onRows);
  const read = await readRawFile(job.dir, RAW_FILE_BY_NAME.get('files')!, log, (row, line) => {
    if (lines.length >= MAX_ROWS) return { code: 'E_RAW_ROW', message: `files.csv has more than ${MAX_ROWS - 1} rows` };
    const r = lines.length;
    const id = row.id as string;
    hashId(id);
    pushRecord(fileIds, r);
    ids.push(id);
    preferred.push(row.preferred === true ? 1 : 0);
    hashId(row.song_id as string);
    pushRecord(songRefs, (kind | r) >>> 0);
    lines.push(line);
  }, { onProgress: rows.tick });
  rows.flush();
  for (const w of [lines, ids, preferred, songRefs, fileIds]) w.finish();
  const { fileIssues, rejected } = log.exported();
  return { read, rows: lines.length, fileIssues, rejected };
}

/** One sorter record: the id hash in idHash, then `value`. */
function pushRecord(column: NumberColumnWriter, value: number): void {
  column.push(idHash[0]);
  column.push(idHash[1]);
  column.push(idHash[2]);
  column.push(value);
}

/** Reads files.csv on a worker thread (parse-files-worker.ts) while this one reads the other raw files. */
export function startParseFiles(job: ParseFilesJob, onRows?: RowsDone): Promise<ParsedFiles> {
  return runWorkerJob('files.csv', './parse-files-worker.js', import.meta.url, job, (here) => parseFilesCsv(job, here), onRows);
}
