import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { csvField } from '../../raw/csv-writer.js';
import { RAW_FILES, type RawFileName } from '../../raw/schema.js';
import type { ManifestSource } from '../../index-format/manifest.js';
import type { Closure } from './closure.js';
import { scanRawFile, type RawRow } from './raw-rows.js';

/** Which rows of each raw file the compile of a delta's candidates reads (closure.ts); files not named keep no rows. */
function keeps(included: Closure['included']): Partial<Record<RawFileName, (row: RawRow) => boolean>> {
  const { song, album, artist, playlist } = included;
  return {
    artists: (r) => artist.has(r.id),
    albums: (r) => album.has(r.id),
    album_artists: (r) => album.has(r.album_id) && artist.has(r.artist_id),
    songs: (r) => song.has(r.id),
    song_artists: (r) => song.has(r.song_id) && artist.has(r.artist_id),
    album_tracks: (r) => album.has(r.album_id) && song.has(r.song_id),
    files: (r) => song.has(r.song_id),
    lyrics: (r) => song.has(r.song_id),
    playlists: (r) => playlist.has(r.id),
    playlist_tracks: (r) => playlist.has(r.playlist_id) && song.has(r.song_id),
  };
}

const FLUSH_BYTES = 1 << 20;

/**
 * Writes into `outDir` the raw rows of `rawDir` the closure includes, each file's rows in their
 * order (so a compile of them numbers resources in the order a full compile does), stations and
 * the explore feed with no rows (a delta compile works those out over the whole catalog).
 * Returns the sources as a full compile of `rawDir` names them (sizes, rows, SHA-256).
 */
export async function writeIncludedRaw(rawDir: string, outDir: string, included: Closure['included']): Promise<IncludedRaw> {
  const rules = keeps(included);
  const sources: ManifestSource[] = [];
  const lines = new Map<string, Map<number, number>>();
  for (const spec of RAW_FILES) {
    const keep = rules[spec.file];
    const out = new LineFile(join(outDir, `${spec.file}.csv`));
    try {
      const scanned = await scanRawFile(rawDir, spec.file, (row, cells, header, line) => {
        if (keep?.(row)) out.write(header, `${cells.map((c) => csvField(c)).join(',')}\n`, line);
      });
      if (!scanned) continue;
      lines.set(`${spec.file}.csv`, out.lines);
      out.finish(scanned.header);
      sources.push({ file: `${spec.file}.csv`, bytes: scanned.bytes, rows: scanned.rows, sha256: scanned.sha256 });
    } finally {
      out.close();
    }
  }
  return { sources, lines };
}

export interface IncludedRaw {
  /** The raw catalog's files as a full compile names them in its manifest. */
  readonly sources: ManifestSource[];
  /** Per file written, the line of each row in it -> that row's line in the raw catalog. */
  readonly lines: ReadonlyMap<string, ReadonlyMap<number, number>>;
}

/** A CSV file written in large writes, its header first; not created until there is something to write. */
class LineFile {
  private fd: number | null = null;
  private pending: string[] = [];
  private bytes = 0;
  /** The line the next row starts on, and each row's line -> its line in the raw catalog. */
  private at = 2;
  readonly lines = new Map<number, number>();

  constructor(private readonly path: string) {}

  write(header: readonly string[], line: string, rawLine: number): void {
    this.open(header);
    this.lines.set(this.at, rawLine);
    for (let i = line.indexOf('\n'); i >= 0; i = line.indexOf('\n', i + 1)) this.at++;
    this.pending.push(line);
    this.bytes += line.length;
    if (this.bytes >= FLUSH_BYTES) this.flush();
  }

  /** The file with its header and every row written, even when it kept none. */
  finish(header: readonly string[]): void {
    this.open(header);
    this.flush();
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private open(header: readonly string[]): void {
    if (this.fd !== null) return;
    this.fd = openSync(this.path, 'w');
    writeSync(this.fd, `${header.join(',')}\n`);
  }

  private flush(): void {
    if (this.fd !== null && this.pending.length > 0) writeSync(this.fd, this.pending.join(''));
    this.pending = [];
    this.bytes = 0;
  }
}
