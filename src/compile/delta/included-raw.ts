import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { RAW_FILES, type RawFileName } from '../../raw/schema.js';
import type { ManifestSource } from '../../index-format/manifest.js';
import type { Closure } from './closure.js';
import { scanRawKeyed } from './fast-rows.js';
import type { OwnerRows } from './owner-rows.js';

/**
 * Per raw file, the columns that decide whether a row is read, the rule, and the ids of its first
 * column a kept row has. Files not named keep no rows.
 */
function keeps(
  included: Closure['included'],
): Partial<Record<RawFileName, { columns: string[]; keep: (k: string[]) => boolean; owners: ReadonlySet<string> }>> {
  const { song, album, artist, playlist } = included;
  const own = (ids: ReadonlySet<string>) => ({ columns: ['id'], keep: (k: string[]) => ids.has(k[0]), owners: ids });
  const pair = (a: string, as: ReadonlySet<string>, b: string, bs: ReadonlySet<string>) => ({
    columns: [a, b],
    keep: (k: string[]) => as.has(k[0]) && bs.has(k[1]),
    owners: as,
  });
  return {
    artists: own(artist),
    albums: own(album),
    album_artists: pair('album_id', album, 'artist_id', artist),
    songs: own(song),
    song_artists: pair('song_id', song, 'artist_id', artist),
    album_tracks: pair('album_id', album, 'song_id', song),
    files: { columns: ['song_id'], keep: (k) => song.has(k[0]), owners: song },
    lyrics: { columns: ['song_id'], keep: (k) => song.has(k[0]), owners: song },
    playlists: own(playlist),
    playlist_tracks: pair('playlist_id', playlist, 'song_id', song),
  };
}

export interface IncludedRaw {
  /** The raw catalog's files as a full compile names them in its manifest. */
  readonly sources: ManifestSource[];
  /** Per file written, the line of each row in it -> that row's line in the raw catalog. */
  readonly lines: ReadonlyMap<string, ReadonlyMap<number, number>>;
}

/**
 * Writes into `outDir` the raw rows of `rawDir` the closure includes, each file's rows in their
 * order and as their bytes are (so a compile of them numbers resources in the order a full
 * compile does), stations and the explore feed with no rows (a delta compile works those out over
 * the whole catalog). Every file is read once (fast-rows.ts) and hashed: the sources are what a
 * full compile of `rawDir` names (sizes, rows, SHA-256).
 */
export async function writeIncludedRaw(rawDir: string, outDir: string, included: Closure['included'], byOwner: OwnerRows): Promise<IncludedRaw> {
  const rules = keeps(included);
  const sources: ManifestSource[] = [];
  const lines = new Map<string, Map<number, number>>();
  for (const spec of RAW_FILES) {
    const rule = rules[spec.file] ?? { columns: [], keep: () => false, owners: new Set<string>() };
    const out = new RowFile(join(outDir, `${spec.file}.csv`));
    try {
      const keep = (keys: string[], row: Buffer, line: number, header: readonly string[]) => {
        if (rule.keep(keys)) out.write(header, row, line);
      };
      // A file a streamed import wrote and nobody changed since is read by owner, its size, rows and digest as the import recorded them.
      const scanned = byOwner.holds(spec.file)
        ? byOwner.read(spec.file, rule.owners, rule.columns, keep)
        : await scanRawKeyed(rawDir, spec.file, rule.columns, keep, () => out.reset());
      if (!scanned) continue;
      out.finish(scanned.header);
      lines.set(`${spec.file}.csv`, out.lines);
      sources.push({ file: `${spec.file}.csv`, bytes: scanned.bytes, rows: scanned.rows, sha256: scanned.sha256 });
    } finally {
      out.close();
    }
  }
  return { sources, lines };
}

const FLUSH_BYTES = 1 << 20;
const LF = 10;

/** A CSV file written in large writes, its header first; not created until there is something to write. */
class RowFile {
  private fd: number | null = null;
  private pending: Buffer[] = [];
  private bytes = 0;
  /** The line the next row starts on, and each row's line -> its line in the raw catalog. */
  private at = 2;
  readonly lines = new Map<number, number>();

  constructor(private readonly path: string) {}

  write(header: readonly string[], row: Buffer, rawLine: number): void {
    this.open(header);
    this.lines.set(this.at, rawLine);
    for (let i = row.indexOf(LF); i >= 0; i = row.indexOf(LF, i + 1)) this.at++;
    this.at++;
    this.pending.push(Buffer.from(row), Buffer.from('\n'));
    this.bytes += row.length + 1;
    if (this.bytes >= FLUSH_BYTES) this.flush();
  }

  /** The file with its header and every row written, even when it kept none. */
  finish(header: readonly string[]): void {
    this.open(header);
    this.flush();
  }

  /** Starts the file again (a second read of it). */
  reset(): void {
    this.close();
    this.pending = [];
    this.bytes = 0;
    this.at = 2;
    this.lines.clear();
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
    if (this.fd !== null && this.pending.length > 0) writeSync(this.fd, Buffer.concat(this.pending));
    this.pending = [];
    this.bytes = 0;
  }
}
