import type { ParsedRow } from '../raw-file.js';
import { int, str } from './cell-values.js';

/** The raw files whose rows are records as they stand: no other file needed to write them. */
export type EdgeRecordFile = 'files' | 'lyrics';
/** In the order their shards are listed. */
export const EDGE_RECORD_FILES: readonly EdgeRecordFile[] = ['files', 'lyrics'];
export const isEdgeRecordFile = (file: string): file is EdgeRecordFile => (EDGE_RECORD_FILES as readonly string[]).includes(file);

/**
 * A row of files.csv or lyrics.csv as its record. A file keeps its own duration (null when its
 * cell is empty; renderers show the song's then), so its record needs nothing but its row and
 * the first pass writes it as it reads the row (parse-refs.ts).
 */
export const EDGE_RECORD_OF: Readonly<Record<EdgeRecordFile, (row: ParsedRow) => unknown>> = {
  files: (row) => ({
    id: row.id,
    songId: row.song_id,
    mimeType: row.mime_type,
    codec: str(row.codec),
    lossless: row.lossless === true,
    bitrateKbps: int(row.bitrate_kbps),
    sampleRateHz: int(row.sample_rate_hz),
    channels: int(row.channels),
    sizeBytes: int(row.size_bytes),
    durationMs: int(row.duration_ms),
    streamUrl: str(row.stream_url),
    downloadUrl: str(row.download_url),
    preferred: row.preferred === true,
  }),
  lyrics: (row) => ({ songId: row.song_id, language: row.language, text: row.text, ttml: str(row.ttml) }),
};
