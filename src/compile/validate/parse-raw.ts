import { deriveOmmId, type CatalogType } from '../../catalog/catalog-ids.js';
import { RAW_FILE_BY_NAME, type RawFileName } from '../../raw/schema.js';
import type { RawIssue } from '../compile-error.js';
import type { MemoryBudget } from '../memory-budget.js';
import { readRawFile, type IssueLog, type ParsedRow, type RawFileRead } from '../raw-file.js';
import { releaseDateKey } from '../sort-keys.js';
import { mapU32Column, NumberColumnWriter, StringColumnWriter } from '../spill/columns.js';
import { FixedSorter } from '../spill/fixed-sort.js';
import type { SpillDir } from '../spill/spill-dir.js';
import { EntityFilesWriter, type EntityFiles } from './entity-files.js';
import { GenreNames } from './genre-names.js';
import { hashId, idHash } from './id-hash.js';
import { startParseFiles } from './parse-files.js';
import { ENTITY_NAMES, MAX_ROWS, refKind, ROW_BITS, type EntityName, type RefFile } from './raw-refs.js';

type Problem = Omit<RawIssue, 'file' | 'line'>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback);
const CATALOG_TYPE: Partial<Record<EntityName, CatalogType>> = { artists: 'artist', albums: 'album', songs: 'song' };
const DERIVED_STATION = /^(artist-|album-|song-|genre-|popular)/;

export interface ParsedEntity {
  readonly files: EntityFiles;
  /** (id hash, kind << 29 | row): the entity's rows (kind 0) and every reference to it. */
  readonly ids: FixedSorter;
  /** (catalog id hash, row), for catalog types. */
  readonly omm: FixedSorter | null;
}

/** A file of references, as the first pass keeps it: rows numbered among its cell-valid rows. */
export interface ParsedRefFile {
  readonly rows: number;
  /** u32 column: the line of each row. */
  readonly lines: string;
  /** Other per-row columns, by name (see parseRaw for which). */
  readonly columns: Readonly<Record<string, string>>;
}

export interface ExploreGroupRow {
  readonly id: string;
  readonly title: string;
  readonly type: 'song' | 'album' | 'artist' | 'playlist' | 'station';
  readonly position: number;
  readonly line: number;
}

export interface ExploreItemRow {
  readonly group: number;
  readonly position: number;
  readonly line: number;
  readonly resourceId: string;
}

export interface ParsedCatalog {
  readonly entities: Record<EntityName, ParsedEntity>;
  readonly refs: Record<RefFile, ParsedRefFile>;
  /** files.csv's own ids: (id hash, row). */
  readonly fileIds: FixedSorter;
  readonly genres: GenreNames;
  readonly exploreGroups: ExploreGroupRow[];
  readonly exploreItems: ExploreItemRow[];
  readonly read: Map<RawFileName, RawFileRead>;
}

const NO_POSITION = Number.NaN;
const TYPE_ENTITY: Record<ExploreGroupRow['type'], EntityName> = { song: 'songs', album: 'albums', artist: 'artists', playlist: 'playlists', station: 'stations' };

/**
 * The first pass proper: reads every raw file once, in order, checks each cell, and keeps what
 * later phases need as column files and sorted runs; nothing per row stays in memory. Rules
 * between rows (duplicate ids, references, conflicts) are checked afterwards, by sorting
 * (resolve-ids.ts, check-refs.ts).
 */
export async function parseRaw(dir: string, spill: SpillDir, budget: MemoryBudget, log: IssueLog, onRow?: () => void): Promise<ParsedCatalog> {
  const sorterBytes = budget.sorterBytes(ENTITY_NAMES.length + 4);
  const read = new Map<RawFileName, RawFileRead>();
  const genres = new GenreNames();
  const entities = {} as Record<EntityName, ParsedEntity>;
  const writers = {} as Record<EntityName, EntityFilesWriter>;
  // Sorted on the hash alone (three key words): the sort is stable, records go in in file order
  // and every entity file is read before the files that refer to it, so in a group of equal
  // hashes the entity's own rows come first and every kind's rows stay in row order.
  for (const name of ENTITY_NAMES) {
    writers[name] = new EntityFilesWriter(spill, name);
    entities[name] = {
      files: null as unknown as EntityFiles,
      ids: new FixedSorter(spill.path, spill.name(`ids-${name}`), 4, 3, sorterBytes),
      omm: CATALOG_TYPE[name] ? new FixedSorter(spill.path, spill.name(`omm-${name}`), 4, 3, sorterBytes) : null,
    };
  }
  const fileIds = new FixedSorter(spill.path, spill.name('file-ids'), 4, 3, sorterBytes);

  // files.csv on a worker meanwhile; what it leaves is added to the sorters at the end.
  const filesPaths = { lines: spill.file('files.lines'), ids: spill.file('files.ids'), preferred: spill.file('files.preferred'), songRefs: spill.file('files.song-refs'), fileIds: spill.file('files.file-ids') };
  const filesJob = startParseFiles({ dir, paths: filesPaths }, (rows) => {
    if (onRow) for (let i = 0; i < rows; i++) onRow();
  });
  filesJob.catch(() => undefined); // awaited below

  const readFile = async (name: RawFileName, handler: (row: ParsedRow, line: number) => Problem | void) => {
    read.set(name, await readRawFile(dir, RAW_FILE_BY_NAME.get(name)!, log, handler, { onProgress: onRow }));
  };
  const tooMany = (file: string, rows: number): Problem | undefined =>
    rows >= MAX_ROWS ? { code: 'E_RAW_ROW', message: `${file} has more than ${MAX_ROWS - 1} rows` } : undefined;

  const readEntity = async (name: EntityName, extra?: (row: ParsedRow) => Problem | undefined) => {
    const w = writers[name];
    const type = CATALOG_TYPE[name];
    const { ids, omm } = entities[name];
    await readFile(name, (row, line) => {
      const problem = extra?.(row) ?? tooMany(`${name}.csv`, w.count);
      if (problem) return problem;
      const id = row.id as string;
      const ommId = type ? (str(row.omm_id) ?? deriveOmmId(type, id)) : '';
      const slot = w.count;
      hashId(id);
      ids.add(idHash[0], idHash[1], idHash[2], slot);
      if (omm) {
        hashId(ommId);
        omm.add(idHash[0], idHash[1], idHash[2], slot);
      }
      w.add({
        id,
        name: row.name as string,
        ommId,
        line,
        popularity: num(row.popularity, 0),
        dateAdded: num(row.date_added, Number.NaN),
        releaseKey: releaseDateKey(str(row.release_date)),
        releaseText: str(row.release_date) ?? '',
        genres: genres.idsOf(row.genres as string[] | undefined),
        artwork: str(row.artwork_url) ?? '',
        code: str(row.isrc) ?? str(row.upc) ?? '',
        duration: num(row.duration_ms, Number.NaN),
      });
    });
    entities[name] = { ...entities[name], files: w.finish() };
  };

  /** A file of references: its rows' lines, each reference into its entity's sorter, and `keep`'s columns. */
  const readRefs = async (file: RefFile, targets: Record<string, EntityName>, keep: (row: ParsedRow) => Problem | void, columns: Record<string, NumberColumnWriter | StringColumnWriter> = {}) => {
    const lines = new NumberColumnWriter(spill.file(`${file}.lines`), 'u32');
    const kinds = Object.entries(targets).map(([column, entity]) => ({ column, sorter: entities[entity].ids, kind: refKind(entity, file, column) << ROW_BITS }));
    await readFile(file, (row, line) => {
      const problem = tooMany(`${file}.csv`, lines.length) ?? keep(row);
      if (problem) return problem;
      const r = lines.length;
      for (const { column, sorter, kind } of kinds) {
        hashId(row[column] as string);
        sorter.add(idHash[0], idHash[1], idHash[2], (kind | r) >>> 0);
      }
      lines.push(line);
    });
    lines.finish();
    const paths: Record<string, string> = {};
    for (const [name, w] of Object.entries(columns)) {
      w.finish();
      paths[name] = w.path;
    }
    refs[file] = { rows: lines.length, lines: lines.path, columns: paths };
  };
  const refs = {} as Record<RefFile, ParsedRefFile>;
  const positionColumn = (file: string) => new NumberColumnWriter(spill.file(`${file}.position`), 'f64');

  await readEntity('artists');
  await readEntity('albums');
  {
    const position = positionColumn('album_artists');
    await readRefs('album_artists', { album_id: 'albums', artist_id: 'artists' }, (row) => void position.push(num(row.position, NO_POSITION)), { position });
  }
  await readEntity('songs');
  {
    const position = positionColumn('song_artists');
    await readRefs('song_artists', { song_id: 'songs', artist_id: 'artists' }, (row) => void position.push(num(row.position, NO_POSITION)), { position });
  }
  {
    const disc = new NumberColumnWriter(spill.file('album_tracks.disc'), 'u32');
    const track = new NumberColumnWriter(spill.file('album_tracks.track'), 'u32');
    await readRefs('album_tracks', { album_id: 'albums', song_id: 'songs' }, (row) => {
      const d = num(row.disc_number, 1);
      const t = row.track_number as number;
      if (d > 999 || t > 99999) return { code: 'E_RAW_ROW', column: d > 999 ? 'disc_number' : 'track_number', message: 'is out of range (disc <= 999, track <= 99999)' };
      disc.push(d);
      track.push(t);
    }, { disc, track });
  }
  {
    const language = new StringColumnWriter(spill.file('lyrics.language'));
    await readRefs('lyrics', { song_id: 'songs' }, (row) => void language.push(row.language as string), { language });
  }
  await readEntity('playlists');
  {
    const position = positionColumn('playlist_tracks');
    await readRefs('playlist_tracks', { playlist_id: 'playlists', song_id: 'songs' }, (row) => void position.push(num(row.position, NO_POSITION)), { position });
  }
  await readEntity('stations', (row) => {
    const id = row.id as string;
    if (DERIVED_STATION.test(id)) return { code: 'E_RAW_ROW', column: 'id', message: `${JSON.stringify(id)} starts with a derived station prefix (artist-, album-, song-, genre-, popular)` };
    return undefined;
  });
  {
    const position = positionColumn('station_tracks');
    await readRefs('station_tracks', { station_id: 'stations', song_id: 'songs' }, (row) => void position.push(num(row.position, NO_POSITION)), { position });
  }

  // The explore feed is editorial and small: its groups stay in memory, its items' resources
  // are resolved with the other references.
  const exploreGroups: ExploreGroupRow[] = [];
  const groupById = new Map<string, number>();
  await readFile('explore_groups', (row, line) => {
    const id = row.id as string;
    const existing = groupById.get(id);
    if (existing !== undefined) return { code: 'E_RAW_DUPLICATE', column: 'id', message: `id ${JSON.stringify(id)} is already used on line ${exploreGroups[existing].line}` };
    groupById.set(id, exploreGroups.length);
    exploreGroups.push({ id, title: row.title as string, type: row.type as ExploreGroupRow['type'], position: num(row.position, NO_POSITION), line });
  });
  const exploreItems: ExploreItemRow[] = [];
  await readFile('explore_items', (row, line) => {
    const group = groupById.get(row.group_id as string);
    if (group === undefined) return { code: 'E_RAW_REF', column: 'group_id', message: `${JSON.stringify(row.group_id)} is not an id in explore_groups.csv (or its row was rejected)` };
    const resourceId = row.resource_id as string;
    const entity = TYPE_ENTITY[exploreGroups[group].type];
    hashId(resourceId);
    entities[entity].ids.add(idHash[0], idHash[1], idHash[2], ((refKind(entity, 'explore_items', 'resource_id') << ROW_BITS) | exploreItems.length) >>> 0);
    exploreItems.push({ group, position: num(row.position, NO_POSITION), line, resourceId });
  });
  // files.csv's records go into the sorters after everything else: a sort is stable and a
  // song's own rows went in first, which is all resolving needs (the order among referring rows
  // of different files changes nothing it writes).
  const files = await filesJob;
  log.merge(files);
  read.set('files', files.read);
  refs.files = { rows: files.rows, lines: filesPaths.lines, columns: { ids: filesPaths.ids, preferred: filesPaths.preferred } };
  addRecords(filesPaths.songRefs, entities.songs.ids);
  addRecords(filesPaths.fileIds, fileIds);
  return { entities, refs, fileIds, genres, exploreGroups, exploreItems, read };
}

/** Adds a file of sorter records (u32 x 4 each, parse-files.ts) to `sorter`. */
function addRecords(path: string, sorter: FixedSorter): void {
  const words = mapU32Column(path);
  for (let i = 0; i + 3 < words.length; i += 4) sorter.add(words[i], words[i + 1], words[i + 2], words[i + 3]);
}
