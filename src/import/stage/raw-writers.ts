import { RawCsvWriter } from '../../raw/csv-writer.js';
import { columnsOf, type RawFileName } from '../../raw/schema.js';

/** Columns the streamed importers write beyond the raw format's own; `x_` columns are kept for people, ignored by the compiler. */
export const STAGED_COLUMNS: Readonly<Partial<Record<RawFileName, readonly string[]>>> = {
  albums: [...columnsOf('albums'), 'x_grid', 'x_p_line', 'x_c_line'],
  songs: [...columnsOf('songs'), 'x_explicit', 'x_p_line'],
};

/** The raw files a streamed import writes, every one of them even when empty: a later compile sees "no credits", not "no file". */
export const STAGED_FILES = ['artists', 'albums', 'album_artists', 'songs', 'song_artists', 'album_tracks'] as const satisfies readonly RawFileName[];

/** The stage's CSV writers into one directory, opened on first use. */
export class RawWriters {
  private readonly writers = new Map<RawFileName, RawCsvWriter>();

  constructor(private readonly dir: string) {
    for (const file of STAGED_FILES) this.writer(file);
  }

  readonly writer = (file: RawFileName): RawCsvWriter => {
    let w = this.writers.get(file);
    if (!w) {
      w = new RawCsvWriter(this.dir, file, STAGED_COLUMNS[file] ?? columnsOf(file));
      this.writers.set(file, w);
    }
    return w;
  };

  /** Closes every writer; the rows each wrote, by file. */
  close(): Map<RawFileName, number> {
    const rows = new Map<RawFileName, number>();
    for (const [file, w] of this.writers) {
      w.close();
      rows.set(file, w.rows);
    }
    return rows;
  }
}
