import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RawRow } from '../raw/csv-writer.js';
import { RAW_FILES, type RawFileName } from '../raw/schema.js';
import { FileDelivery, ROW_RULES } from './raw-delivery.js';
import { writeMerged } from './raw-merge-writer.js';
import { ImportWorkDir } from './stage/output-dir.js';

export interface ImportSummary {
  readonly outDir: string;
  /** Rows delivered per raw file (a row said again by a later source counted again). */
  readonly rows: Record<string, number>;
  /** Rows left out, with why (invalid codes in the source, ...). */
  readonly warnings: string[];
}

/** Owned lists (credits, tracks) per the file of their owner: started over when the owner is delivered again. */
const OWNED_BY = new Map<RawFileName, RawFileName[]>();
for (const spec of RAW_FILES) {
  const rule = ROW_RULES[spec.file];
  if (rule.kind === 'owned') OWNED_BY.set(rule.ownerFile, [...(OWNED_BY.get(rule.ownerFile) ?? []), spec.file]);
}

/**
 * Where the CSV importers (Chinook, Exportify, most-streamed) write, by the rules the streamed
 * importers follow (docs/importers.md): a later source's word wins. The import is made of
 * delivery units (an Exportify file each; a Chinook database, a most-streamed chart); within a
 * unit the first row of an id wins, as before; a later unit, or a later import with `merge`,
 * that delivers an id again replaces its row where it stands, and an owner delivered again (an
 * album, a song, a playlist) starts its credits or tracks over. Rows are held in memory (these
 * sources are small); on close they are written into a work directory beside the output, the
 * existing raw catalog streamed through when merging (its rows kept in place unless replaced,
 * new rows after them), and the work directory is renamed into place only then: a failed import
 * leaves the raw catalog as it was. Merging the same source twice changes nothing; merging A
 * then B writes what importing A and B together does.
 */
export class RawSink {
  private readonly deliveries = new Map<RawFileName, FileDelivery>();
  /** Per `file\0id`, the unit that delivered it in this import. */
  private readonly deliveredIn = new Map<string, number>();
  private unitNumber = 1;
  readonly warnings: string[] = [];

  private constructor(
    readonly dir: string,
    private readonly merge: boolean,
    private readonly work: ImportWorkDir,
  ) {}

  /** A sink for an import into `dir` (a work directory beside it is made now). */
  static async open(dir: string, merge = false): Promise<RawSink> {
    return new RawSink(dir, merge, new ImportWorkDir(dir));
  }

  /** Starts the next delivery unit (an importer reading several sources calls it between them). */
  beginUnit(): void {
    this.unitNumber++;
  }

  /**
   * Delivers an entity row. False when this unit delivered the id already (its first row stands,
   * and the caller skips what comes with it); true otherwise, the row replacing any earlier one
   * and the lists it owns starting over, for the caller to deliver them.
   */
  entity(file: RawFileName, row: RawRow): boolean {
    const id = String(row.id);
    const key = `${file}\u0000${id}`;
    if (this.deliveredIn.get(key) === this.unitNumber) return false;
    this.deliveredIn.set(key, this.unitNumber);
    this.delivery(file).put(row);
    for (const owned of OWNED_BY.get(file) ?? []) this.delivery(owned).restartList(id);
    return true;
  }

  /** Delivers a link row (credits, tracks). */
  link(file: RawFileName, row: RawRow): void {
    this.delivery(file).put(row);
  }

  warn(message: string): void {
    this.warnings.push(message);
  }

  private delivery(file: RawFileName): FileDelivery {
    let delivery = this.deliveries.get(file);
    if (!delivery) this.deliveries.set(file, (delivery = new FileDelivery(ROW_RULES[file])));
    return delivery;
  }

  /** Writes the raw catalog and puts it in place; removes the work directory when that fails. */
  async close(): Promise<ImportSummary> {
    try {
      const rows: Record<string, number> = {};
      for (const spec of RAW_FILES) {
        const existing = join(this.dir, `${spec.file}.csv`);
        const delivery = this.deliveries.get(spec.file) ?? null;
        await writeMerged(spec.file, this.merge && existsSync(existing) ? existing : null, delivery, this.work.raw);
        if (delivery) rows[spec.file] = delivery.delivered;
      }
      this.work.publish();
      return { outDir: this.dir, rows, warnings: this.warnings };
    } catch (err) {
      this.work.remove();
      throw err;
    }
  }

  /** Gives up: the work directory goes, the raw catalog stays as it was. */
  abandon(): void {
    this.work.remove();
  }
}
