import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { streamCsvRows } from '../raw/csv-rows.js';
import { RawCsvWriter, type RawRow } from '../raw/csv-writer.js';
import { RAW_FILES, type RawFileName } from '../raw/schema.js';

/** Files whose rows have an `id` an importer may meet twice (across its inputs or a merge). */
const ENTITY_FILES: RawFileName[] = ['artists', 'albums', 'songs', 'playlists', 'files', 'stations'];

export interface ImportSummary {
  readonly outDir: string;
  /** Rows written per raw file. */
  readonly rows: Record<string, number>;
  /** Rows left out, with why (invalid codes in the source, ...). */
  readonly warnings: string[];
}

/**
 * Where an importer writes: one RawCsvWriter per raw file, opened on first use. Entity rows are
 * written once per id (the first wins). With `merge`, rows go after an existing raw directory's
 * rows and ids already there are skipped.
 */
export class RawSink {
  private readonly writers = new Map<RawFileName, RawCsvWriter>();
  private readonly ids = new Map<RawFileName, Set<string>>();
  readonly warnings: string[] = [];

  private constructor(
    readonly dir: string,
    private readonly merge: boolean,
  ) {}

  static async open(dir: string, merge = false): Promise<RawSink> {
    const sink = new RawSink(dir, merge);
    // Without merge, the import replaces the directory's catalog: no stale file may survive.
    if (!merge) for (const spec of RAW_FILES) rmSync(join(dir, `${spec.file}.csv`), { force: true });
    for (const file of ENTITY_FILES) {
      const seen = new Set<string>();
      sink.ids.set(file, seen);
      const path = join(dir, `${file}.csv`);
      if (!merge || !existsSync(path)) continue;
      let idColumn = -1;
      await streamCsvRows(path, ({ line, cells }) => {
        if (line === 1) idColumn = cells.indexOf('id');
        else if (idColumn >= 0) seen.add(cells[idColumn]);
      });
    }
    return sink;
  }

  has(file: RawFileName, id: string): boolean {
    return this.ids.get(file)?.has(id) ?? false;
  }

  /** Writes an entity row unless its id is already there; returns whether it was written. */
  entity(file: RawFileName, row: RawRow): boolean {
    const id = String(row.id);
    const seen = this.ids.get(file)!;
    if (seen.has(id)) return false;
    seen.add(id);
    this.writer(file).write(row);
    return true;
  }

  /** Writes a link row (credits, tracks). */
  link(file: RawFileName, row: RawRow): void {
    this.writer(file).write(row);
  }

  warn(message: string): void {
    this.warnings.push(message);
  }

  private writer(file: RawFileName): RawCsvWriter {
    let writer = this.writers.get(file);
    if (!writer) {
      writer = new RawCsvWriter(this.dir, file, undefined, this.merge);
      this.writers.set(file, writer);
    }
    return writer;
  }

  close(): ImportSummary {
    const rows: Record<string, number> = {};
    for (const [file, writer] of this.writers) {
      writer.close();
      rows[file] = writer.rows;
    }
    return { outDir: this.dir, rows, warnings: this.warnings };
  }
}
