import { join } from 'node:path';
import { rowsOfOwners } from '../../raw/csv-row-reader.js';
import { currentFileFacts, type FileFacts } from '../../raw/file-facts.js';
import type { RawFileName } from '../../raw/schema.js';
import { keysOf, type ScannedFile } from './fast-rows.js';

/**
 * A raw catalog read by owner: the rows of a file whose first column is one of some ids, where the
 * file is still the one a streamed import wrote in order of that column (raw/file-facts.ts): one
 * pass that cuts no other row's cells and hashes nothing, its size, rows and digest taken from the
 * facts. The delta compile reads the delivered resources and their neighbours this way, so what
 * it reads of an imported catalog is the rows it needs plus a scan for their line feeds.
 */
export class OwnerRows {
  private readonly facts: Map<string, FileFacts>;

  constructor(private readonly rawDir: string) {
    this.facts = currentFileFacts(rawDir);
  }

  /** Whether `file` can be read by owner. */
  holds(file: RawFileName): boolean {
    return this.facts.get(`${file}.csv`)?.byFirstColumn === true;
  }

  /**
   * Hands over each row of `file` whose first cell is in `owners`: the cells of `columns`, the
   * row's bytes (valid during the call) and the line it starts on. `file` must hold (holds()).
   */
  read(
    file: RawFileName,
    owners: Iterable<string>,
    columns: readonly string[],
    onRow: (keys: string[], row: Buffer, line: number, header: readonly string[]) => void,
  ): ScannedFile {
    const facts = this.facts.get(`${file}.csv`);
    if (!facts) throw new Error(`${file}.csv cannot be read by owner`);
    const sorted = [...owners].map((id) => Buffer.from(id, 'utf8')).sort(Buffer.compare);
    let header: string[] = [];
    let positions: number[] = [];
    let last = -1;
    rowsOfOwners(
      join(this.rawDir, `${file}.csv`),
      sorted,
      (h) => {
        header = h;
        positions = columns.map((c) => h.indexOf(c));
        last = Math.max(-1, ...positions);
      },
      (reader) => {
        const row = reader.row.subarray(reader.start, reader.end);
        onRow(keysOf(row, positions, last), row, reader.line, header);
      },
    );
    return { header, rows: facts.rows, bytes: facts.size, sha256: facts.sha256 };
  }
}
