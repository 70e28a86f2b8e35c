import { RecordTableWriter } from '../../index-format/tables/record-table-writer.js';
import type { WrittenShard } from '../../index-format/shards/shard-writer.js';
import { RAW_FILE_BY_NAME } from '../../raw/schema.js';
import type { RawIssue } from '../compile-error.js';
import { IssueLog, readRawFile, type ParsedRow, type RawFileRead, type RejectedRow } from '../raw-file.js';
import { NumberColumnWriter, StringColumnWriter } from '../spill/columns.js';
import { EDGE_RECORD_OF, isEdgeRecordFile } from '../write/edge-record-rows.js';
import { DECLARED_STRUCTURES, newRecordPackr, sharedStructureCount } from '../write/record-packr.js';
import { rowBatches, runWorkerJob, type RowsDone } from '../worker-job.js';
import { hashId, idHash } from './id-hash.js';
import { MAX_ROWS, refKind, ROW_BITS, type EntityName, type RefFile } from './raw-refs.js';

/**
 * The files of references (every raw file but the entities' and the explore feed's) as the first
 * pass reads them: each cell checked, and kept as column files: the row's line, the columns later
 * phases need, and the records the row adds to its targets' id sorters (u32 x 4: the id's hash,
 * kind << 29 | row), which parse-raw.ts adds once it has read the entities. They need nothing from
 * the entity files, so a worker reads some of them while the first pass reads the rest
 * (startParseRefs): plain data in and out.
 */
export type ParsedRefName = Exclude<RefFile, 'explore_items'>;

type Problem = Omit<RawIssue, 'file' | 'line'>;
type ColumnWriter = NumberColumnWriter | StringColumnWriter;

interface RefFileRule {
  /** Referring column -> the entity whose ids it names. */
  readonly targets: Readonly<Record<string, EntityName>>;
  /** The columns kept besides lines: name -> kind. */
  readonly columns: Readonly<Record<string, 'u32' | 'f64' | 'string'>>;
  /** Checks a row and pushes its kept columns (in `columns`' order), or returns why it is rejected. */
  readonly keep: (row: ParsedRow, columns: ColumnWriter[]) => Problem | void;
}

/** A checked number cell, or `fallback` when it was empty. */
export const num = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback);
/** The position kept for a row whose position cell is empty. */
export const NO_POSITION = Number.NaN;
const positioned = (targets: Record<string, EntityName>): RefFileRule => ({
  targets,
  columns: { position: 'f64' },
  keep: (row, [position]) => void (position as NumberColumnWriter).push(num(row.position, NO_POSITION)),
});

/** Per file: what it refers to and what it keeps. Files not listed here are entities. */
export const REF_FILE_RULES: Readonly<Record<ParsedRefName, RefFileRule>> = {
  album_artists: positioned({ album_id: 'albums', artist_id: 'artists' }),
  song_artists: positioned({ song_id: 'songs', artist_id: 'artists' }),
  album_tracks: {
    targets: { album_id: 'albums', song_id: 'songs' },
    columns: { disc: 'u32', track: 'u32' },
    keep: (row, [disc, track]) => {
      const d = num(row.disc_number, 1);
      const t = row.track_number as number;
      if (d > 999 || t > 99999)
        return { code: 'E_RAW_ROW', column: d > 999 ? 'disc_number' : 'track_number', message: 'is out of range (disc <= 999, track <= 99999)' };
      (disc as NumberColumnWriter).push(d);
      (track as NumberColumnWriter).push(t);
    },
  },
  files: {
    targets: { song_id: 'songs' },
    columns: { ids: 'string', preferred: 'u32' },
    keep: (row, [ids, preferred]) => {
      (ids as StringColumnWriter).push(row.id as string);
      (preferred as NumberColumnWriter).push(row.preferred === true ? 1 : 0);
    },
  },
  lyrics: {
    targets: { song_id: 'songs' },
    columns: { language: 'string' },
    keep: (row, [language]) => void (language as StringColumnWriter).push(row.language as string),
  },
  playlist_tracks: positioned({ playlist_id: 'playlists', song_id: 'songs' }),
  station_tracks: positioned({ station_id: 'stations', song_id: 'songs' }),
};

/** Where one file's columns go (paths chosen by the caller, in its spill directory). */
export interface RefFilePaths {
  /** u32 per accepted row: its line. */
  readonly lines: string;
  /** Kept columns by name (REF_FILE_RULES). */
  readonly columns: Readonly<Record<string, string>>;
  /** Sorter records by referring column. */
  readonly records: Readonly<Record<string, string>>;
  /** files.csv only: sorter records of the row's own id (id hash, row). */
  readonly ownIds?: string;
}

export interface ParseRefsJob {
  readonly dir: string;
  readonly files: readonly { readonly file: ParsedRefName; readonly paths: RefFilePaths }[];
  /**
   * Where the record tables of files.csv and lyrics.csv go, written row by row as the rows are
   * read (edge-record-rows.ts): the staging directory and the build id.
   */
  readonly records: { readonly outDir: string; readonly buildId: string };
}

export interface ParsedRefFileRead {
  readonly file: ParsedRefName;
  readonly read: RawFileRead;
  readonly rows: number;
  /** The record table written from the file's rows (files and lyrics), else empty. */
  readonly shards: readonly WrittenShard[];
  /** Rows this pass rejected: the table holds every other row. */
  readonly rejected: number;
}

export interface ParsedRefs {
  readonly files: readonly ParsedRefFileRead[];
  /** Issues with a file as a whole, and rows rejected, for the compile's IssueLog. */
  readonly fileIssues: RawIssue[];
  readonly rejected: RejectedRow[];
}

/** Reads the job's files in order, on this thread. */
export async function parseRefFiles(job: ParseRefsJob, onRows?: RowsDone): Promise<ParsedRefs> {
  const log = new IssueLog(Number.MAX_SAFE_INTEGER);
  const rows = rowBatches(onRows);
  const files: ParsedRefFileRead[] = [];
  const packr = newRecordPackr();
  for (const { file, paths } of job.files) {
    const rule = REF_FILE_RULES[file];
    const lines = new NumberColumnWriter(paths.lines, 'u32');
    const columns = Object.entries(rule.columns).map(([name, kind]) =>
      kind === 'string' ? new StringColumnWriter(paths.columns[name]) : new NumberColumnWriter(paths.columns[name], kind),
    );
    const targets = Object.entries(rule.targets).map(([column, entity]) => ({
      column,
      kind: refKind(entity, file, column) << ROW_BITS,
      out: new NumberColumnWriter(paths.records[column], 'u32'),
    }));
    const ownIds = paths.ownIds ? new NumberColumnWriter(paths.ownIds, 'u32') : null;
    const record = isEdgeRecordFile(file) ? EDGE_RECORD_OF[file] : null;
    const table = record ? new RecordTableWriter(job.records.outDir, file, job.records.buildId, packr) : null;
    const read = await readRawFile(
      job.dir,
      RAW_FILE_BY_NAME.get(file)!,
      log,
      (row, line) => {
        if (lines.length >= MAX_ROWS) return { code: 'E_RAW_ROW', message: `${file}.csv has more than ${MAX_ROWS - 1} rows` };
        const problem = rule.keep(row, columns);
        if (problem) return problem;
        const r = lines.length;
        for (const { column, kind, out } of targets) {
          hashId(row[column] as string);
          pushRecord(out, (kind | r) >>> 0);
        }
        if (ownIds) {
          hashId(row.id as string);
          pushRecord(ownIds, r);
        }
        lines.push(line);
        table?.add(record!(row));
      },
      { onProgress: rows.tick },
    );
    for (const w of [lines, ...columns, ...targets.map((t) => t.out)]) w.finish();
    ownIds?.finish();
    files.push({ file, read, rows: lines.length, shards: table ? table.finish() : [], rejected: log.rejectedCount(`${file}.csv`) });
  }
  rows.flush();
  // A record of another shape would have named a structure the compile's Packr does not have.
  if (sharedStructureCount(packr) !== DECLARED_STRUCTURES) throw new Error('edge records packed a structure that was not declared (record-packr.ts)');
  const { fileIssues, rejected } = log.exported();
  return { files, fileIssues, rejected };
}

/** One sorter record: the id hash in idHash, then `value`. */
function pushRecord(column: NumberColumnWriter, value: number): void {
  column.push(idHash[0]);
  column.push(idHash[1]);
  column.push(idHash[2]);
  column.push(value);
}

/** Reads the job's files on a worker thread (parse-refs-worker.ts) while this one reads others. */
export function startParseRefs(job: ParseRefsJob, onRows?: RowsDone): Promise<ParsedRefs> {
  return runWorkerJob('reference files', './parse-refs-worker.js', import.meta.url, job, (here) => parseRefFiles(job, here), onRows);
}
