import { ListColumn, ListColumnWriter, mapF64Column, mapU32Column, NumberColumnWriter, StringColumn, StringColumnWriter } from '../spill/columns.js';
import type { SpillDir } from '../spill/spill-dir.js';

/**
 * What the first pass keeps of an entity file (artists, albums, songs, playlists, stations):
 * column files by ordinal, on disk. Text that is only displayed (URLs aside, descriptions,
 * labels) stays in the CSV and is read again when records are written.
 */
export interface EntityFiles {
  readonly count: number;
  readonly ids: string;
  readonly names: string;
  /** Catalog ids ('' for types without). */
  readonly ommIds: string;
  readonly lines: string;
  readonly popularity: string;
  /** Epoch ms, NaN when missing. */
  readonly dateAdded: string;
  /** YYYYMMDD, NaN when missing. */
  readonly releaseKey: string;
  /** '' when missing. */
  readonly releaseText: string;
  readonly genres: string;
  /** '' when missing. */
  readonly artwork: string;
  /** Songs: ISRC ('' when missing); albums: UPC. */
  readonly code: string;
  /** Songs: duration in ms, NaN when missing. */
  readonly duration: string;
  /** Songs: the credit as displayed (`artist_name`), '' when missing. */
  readonly display: string;
}

/** The column files of an entity, mapped. */
export interface EntityColumns {
  readonly count: number;
  readonly ids: StringColumn;
  readonly names: StringColumn;
  readonly ommIds: StringColumn;
  readonly lines: Uint32Array;
  readonly popularity: Float64Array;
  readonly dateAdded: Float64Array;
  readonly releaseKey: Float64Array;
  readonly releaseText: StringColumn;
  readonly genres: ListColumn;
  readonly artwork: StringColumn;
  readonly code: StringColumn;
  readonly duration: Float64Array;
  readonly display: StringColumn;
}

export function openEntity(files: EntityFiles): EntityColumns {
  return {
    count: files.count,
    ids: StringColumn.open(files.ids),
    names: StringColumn.open(files.names),
    ommIds: StringColumn.open(files.ommIds),
    lines: mapU32Column(files.lines),
    popularity: mapF64Column(files.popularity),
    dateAdded: mapF64Column(files.dateAdded),
    releaseKey: mapF64Column(files.releaseKey),
    releaseText: StringColumn.open(files.releaseText),
    genres: ListColumn.open(files.genres),
    artwork: StringColumn.open(files.artwork),
    code: StringColumn.open(files.code),
    duration: mapF64Column(files.duration),
    display: StringColumn.open(files.display),
  };
}

/** One row of an entity file, as the first pass keeps it. */
export interface EntityRow {
  id: string;
  name: string;
  ommId: string;
  line: number;
  popularity: number;
  dateAdded: number;
  releaseKey: number;
  releaseText: string;
  genres: ArrayLike<number> | undefined;
  artwork: string;
  code: string;
  duration: number;
  display: string;
}

/** Writes an entity's columns, one row at a time, in file order. */
export class EntityFilesWriter {
  private readonly ids: StringColumnWriter;
  private readonly names: StringColumnWriter;
  private readonly ommIds: StringColumnWriter;
  private readonly lines: NumberColumnWriter;
  private readonly popularity: NumberColumnWriter;
  private readonly dateAdded: NumberColumnWriter;
  private readonly releaseKey: NumberColumnWriter;
  private readonly releaseText: StringColumnWriter;
  private readonly genres: ListColumnWriter;
  private readonly artwork: StringColumnWriter;
  private readonly code: StringColumnWriter;
  private readonly duration: NumberColumnWriter;
  private readonly display: StringColumnWriter;

  constructor(
    spill: SpillDir,
    readonly type: string,
  ) {
    const f = (column: string) => spill.file(`${type}.${column}`);
    this.ids = new StringColumnWriter(f('ids'));
    this.names = new StringColumnWriter(f('names'));
    this.ommIds = new StringColumnWriter(f('omm'));
    this.lines = new NumberColumnWriter(f('lines'), 'u32');
    this.popularity = new NumberColumnWriter(f('popularity'), 'f64');
    this.dateAdded = new NumberColumnWriter(f('date-added'), 'f64');
    this.releaseKey = new NumberColumnWriter(f('release-key'), 'f64');
    this.releaseText = new StringColumnWriter(f('release-text'));
    this.genres = new ListColumnWriter(f('genres'));
    this.artwork = new StringColumnWriter(f('artwork'));
    this.code = new StringColumnWriter(f('code'));
    this.duration = new NumberColumnWriter(f('duration'), 'f64');
    this.display = new StringColumnWriter(f('display'));
  }

  get count(): number {
    return this.lines.length;
  }

  add(row: EntityRow): void {
    this.ids.push(row.id);
    this.names.push(row.name);
    this.ommIds.push(row.ommId);
    this.lines.push(row.line);
    this.popularity.push(row.popularity);
    this.dateAdded.push(row.dateAdded);
    this.releaseKey.push(row.releaseKey);
    this.releaseText.push(row.releaseText);
    this.genres.push(row.genres);
    this.artwork.push(row.artwork);
    this.code.push(row.code);
    this.duration.push(row.duration);
    this.display.push(row.display);
  }

  finish(): EntityFiles {
    for (const w of [
      this.ids,
      this.names,
      this.ommIds,
      this.lines,
      this.popularity,
      this.dateAdded,
      this.releaseKey,
      this.releaseText,
      this.genres,
      this.artwork,
      this.code,
      this.duration,
      this.display,
    ])
      w.finish();
    return {
      count: this.count,
      ids: this.ids.path,
      names: this.names.path,
      ommIds: this.ommIds.path,
      lines: this.lines.path,
      popularity: this.popularity.path,
      dateAdded: this.dateAdded.path,
      releaseKey: this.releaseKey.path,
      releaseText: this.releaseText.path,
      genres: this.genres.path,
      artwork: this.artwork.path,
      code: this.code.path,
      duration: this.duration.path,
      display: this.display.path,
    };
  }
}

/**
 * Rewrites an entity's columns without the rows at `dropped` (sorted slots): what is left is
 * numbered by ordinal. Only runs when some row was rejected after it was written (a duplicate).
 */
export function compactEntity(spill: SpillDir, type: string, files: EntityFiles, dropped: readonly number[]): EntityFiles {
  if (dropped.length === 0) return files;
  const cols = openEntity(files);
  const out = new EntityFilesWriter(spill, type);
  let next = 0;
  for (let slot = 0; slot < cols.count; slot++) {
    if (next < dropped.length && dropped[next] === slot) {
      next++;
      continue;
    }
    out.add({
      id: cols.ids.get(slot),
      name: cols.names.get(slot),
      ommId: cols.ommIds.get(slot),
      line: cols.lines[slot],
      popularity: cols.popularity[slot],
      dateAdded: cols.dateAdded[slot],
      releaseKey: cols.releaseKey[slot],
      releaseText: cols.releaseText.get(slot),
      genres: cols.genres.get(slot),
      artwork: cols.artwork.get(slot),
      code: cols.code.get(slot),
      duration: cols.duration[slot],
      display: cols.display.get(slot),
    });
  }
  return out.finish();
}
