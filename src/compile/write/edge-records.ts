import { RecordTableWriter } from '../../index-format/record-table.js';
import type { WrittenShard } from '../../index-format/shard-writer.js';
import { RAW_FILE_BY_NAME } from '../../raw/schema.js';
import { IssueLog, readRawFile } from '../raw-file.js';
import { mapF64Column, mapU32Column } from '../spill/columns.js';
import type { ValidatedCatalog } from '../validate/validate-catalog.js';
import { rowBatches, runWorkerJob, type RowsDone } from '../worker-job.js';
import { int, str } from './cell-values.js';
import { DECLARED_STRUCTURES, newRecordPackr, sharedStructureCount } from './record-packr.js';

/** What the files and lyrics tables are written from: paths and plain data, so it can cross to a worker. */
export interface EdgeRecordsJob {
  readonly rawDir: string;
  readonly outDir: string;
  readonly buildId: string;
  /** Lines of files.csv and lyrics.csv the first pass rejected (under --skip-invalid). */
  readonly rejectedLines: Readonly<Record<string, readonly number[]>>;
  /** u32 column by file ordinal: its song. */
  readonly fileSongPath: string;
  /** f64 column by song: duration in ms, NaN when missing. */
  readonly songDurationPath: string;
}

/** The job for a compile's validated catalog: `log` knows the rows the first pass rejected. */
export function edgeRecordsJob(v: ValidatedCatalog, log: IssueLog, rawDir: string, outDir: string, buildId: string): EdgeRecordsJob {
  return {
    rawDir,
    outDir,
    buildId,
    rejectedLines: { 'files.csv': log.rejectedLinesOf('files.csv'), 'lyrics.csv': log.rejectedLinesOf('lyrics.csv') },
    fileSongPath: v.edges.files.owners,
    songDurationPath: v.entities.songs.duration,
  };
}

/**
 * Writes the files and lyrics tables (the largest after songs, and needing nothing but their own
 * rows, each file's song and the songs' durations) from a second read of their raw files.
 * `onRows` is told of rows done, now and then.
 */
export async function writeEdgeRecordTables(job: EdgeRecordsJob, onRows?: RowsDone): Promise<WrittenShard[]> {
  const packr = newRecordPackr();
  const log = IssueLog.skipping(job.rejectedLines);
  const fileSong = mapU32Column(job.fileSongPath);
  const songMs = mapF64Column(job.songDurationPath);
  const shards: WrittenShard[] = [];
  const rows = rowBatches(onRows);
  const table = async (file: 'files' | 'lyrics', build: (row: Record<string, unknown>, ordinal: number) => unknown) => {
    const writer = new RecordTableWriter(job.outDir, file, job.buildId, packr);
    let ordinal = 0;
    await readRawFile(job.rawDir, RAW_FILE_BY_NAME.get(file)!, log, (row) => {
      writer.add(build(row, ordinal++));
      rows.tick();
    }, { secondPass: true });
    shards.push(...writer.finish());
  };

  await table('files', (row, f) => {
    const ms = songMs[fileSong[f]];
    return {
      id: row.id,
      songId: row.song_id,
      mimeType: row.mime_type,
      codec: str(row.codec),
      lossless: row.lossless === true,
      bitrateKbps: int(row.bitrate_kbps),
      sampleRateHz: int(row.sample_rate_hz),
      channels: int(row.channels),
      sizeBytes: int(row.size_bytes),
      durationMs: int(row.duration_ms) ?? (Number.isNaN(ms) ? null : ms),
      streamUrl: str(row.stream_url),
      downloadUrl: str(row.download_url),
      preferred: row.preferred === true,
    };
  });
  await table('lyrics', (row) => ({ songId: row.song_id, language: row.language, text: row.text, ttml: str(row.ttml) }));
  rows.flush();
  // A record of another shape would have named a structure the compile's Packr does not have.
  if (sharedStructureCount(packr) !== DECLARED_STRUCTURES) throw new Error('edge records packed a structure that was not declared (record-packr.ts)');
  return shards;
}

/**
 * Writes the files and lyrics tables on a worker thread (edge-records-worker.ts) while this one
 * writes the others.
 */
export function startEdgeRecords(job: EdgeRecordsJob, onRows?: RowsDone): Promise<WrittenShard[]> {
  return runWorkerJob('records', './edge-records-worker.js', import.meta.url, job, (here) => writeEdgeRecordTables(job, here), onRows);
}
