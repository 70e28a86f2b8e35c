import { deriveOmmId, type CatalogType } from '../../catalog/catalog-ids.js';
import { RAW_FILE_BY_NAME, type RawFileName } from '../../raw/schema.js';
import type { RawIssue } from '../compile-error.js';
import type { MemoryBudget } from '../memory-budget.js';
import { readRawFile, type IssueLog, type ParsedRow, type RawFileRead } from '../raw-file.js';
import { releaseDateKey } from '../sort-keys.js';
import { mapU32Column } from '../spill/columns.js';
import { FixedSorter } from '../../sort/fixed-sort.js';
import type { SpillDir } from '../spill/spill-dir.js';
import { besideWorker, eachRow } from '../worker-job.js';
import { EntityFilesWriter, type EntityFiles } from './entity-files.js';
import { GenreNames } from './genre-names.js';
import { hashId, idHash } from './id-hash.js';
import type { WrittenShard } from '../../index-format/shards/shard-writer.js';
import { isEdgeRecordFile, type EdgeRecordFile } from '../write/edge-record-rows.js';
import { NO_POSITION, num, parseRefFiles, REF_FILE_RULES, startParseRefs, type ParsedRefName, type ParseRefsJob, type RefFilePaths } from './parse-refs.js';
import { ENTITY_NAMES, MAX_ROWS, refKind, ROW_BITS, type EntityName, type RefFile } from './raw-refs.js';

type Problem = Omit<RawIssue, 'file' | 'line'>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
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
  /** The record tables the first pass wrote (files, lyrics), with the rows it rejected in each. */
  readonly edgeRecords: ReadonlyMap<EdgeRecordFile, EdgeRecordsWritten>;
}

export interface EdgeRecordsWritten {
  readonly shards: readonly WrittenShard[];
  readonly rejected: number;
}

/** Where the first pass writes record tables: the staging directory, with the build id. */
export interface FirstPassRecords {
  readonly outDir: string;
  readonly buildId: string;
}

/** The files of references, in the order their records join the sorters. */
const REF_FILES: readonly ParsedRefName[] = ['album_artists', 'song_artists', 'album_tracks', 'lyrics', 'playlist_tracks', 'station_tracks', 'files'];
/**
 * Those this thread reads after the entity files; the worker reads the rest meanwhile. Chosen so
 * both threads take about as long (songs.csv is the heaviest file per row).
 */
const REFS_READ_HERE: ReadonlySet<ParsedRefName> = new Set(['album_artists', 'song_artists', 'album_tracks']);
const TYPE_ENTITY: Record<ExploreGroupRow['type'], EntityName> = {
  song: 'songs',
  album: 'albums',
  artist: 'artists',
  playlist: 'playlists',
  station: 'stations',
};

/**
 * The first pass proper: reads every raw file once, in order, checks each cell, and keeps what
 * later phases need as column files and sorted runs; nothing per row stays in memory. Rules
 * between rows (duplicate ids, references, conflicts) are checked afterwards, by sorting
 * (resolve-ids.ts, check-refs.ts).
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: not yet split by phase (issue 40, item 7)
export async function parseRaw(
  dir: string,
  spill: SpillDir,
  budget: MemoryBudget,
  log: IssueLog,
  records: FirstPassRecords,
  onRow?: () => void,
): Promise<ParsedCatalog> {
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

  // The files of references are read into column files, most of them on a worker meanwhile;
  // their sorter records are added once the entities are in (see the end).
  const refPaths = {} as Record<ParsedRefName, RefFilePaths>;
  for (const file of REF_FILES) {
    const rule = REF_FILE_RULES[file];
    refPaths[file] = {
      lines: spill.file(`${file}.lines`),
      columns: Object.fromEntries(Object.keys(rule.columns).map((c) => [c, spill.file(`${file}.${c}`)])),
      records: Object.fromEntries(Object.keys(rule.targets).map((c) => [c, spill.file(`${file}.refs-${c}`)])),
      ownIds: file === 'files' ? spill.file('files.own-ids') : undefined,
    };
  }
  const refsJob = (files: readonly ParsedRefName[]): ParseRefsJob => ({ dir, records, files: files.map((file) => ({ file, paths: refPaths[file] })) });
  const onRows = eachRow(onRow);
  const worker = startParseRefs(refsJob(REF_FILES.filter((f) => !REFS_READ_HERE.has(f))), onRows);
  worker.catch(() => undefined); // awaited below

  /** Everything this thread reads: the entity files, the explore feed, then its files of references. */
  const readHere = async () => {
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
          display: name === 'songs' ? (str(row.artist_name) ?? '') : '',
        });
      });
      entities[name] = { ...entities[name], files: w.finish() };
    };

    await readEntity('artists');
    await readEntity('albums');
    await readEntity('songs');
    await readEntity('playlists');
    await readEntity('stations', (row) => {
      const id = row.id as string;
      if (DERIVED_STATION.test(id))
        return {
          code: 'E_RAW_ROW',
          column: 'id',
          message: `${JSON.stringify(id)} starts with a derived station prefix (artist-, album-, song-, genre-, popular)`,
        };
      return undefined;
    });
    // The explore feed is editorial and small: its groups stay in memory, its items' resources
    // are resolved with the other references.
    const exploreGroups: ExploreGroupRow[] = [];
    const groupById = new Map<string, number>();
    await readFile('explore_groups', (row, line) => {
      const id = row.id as string;
      const existing = groupById.get(id);
      if (existing !== undefined)
        return { code: 'E_RAW_DUPLICATE', column: 'id', message: `id ${JSON.stringify(id)} is already used on line ${exploreGroups[existing].line}` };
      groupById.set(id, exploreGroups.length);
      exploreGroups.push({ id, title: row.title as string, type: row.type as ExploreGroupRow['type'], position: num(row.position, NO_POSITION), line });
    });
    const exploreItems: ExploreItemRow[] = [];
    await readFile('explore_items', (row, line) => {
      const group = groupById.get(row.group_id as string);
      if (group === undefined)
        return {
          code: 'E_RAW_REF',
          column: 'group_id',
          message: `${JSON.stringify(row.group_id)} is not an id in explore_groups.csv (or its row was rejected)`,
        };
      const resourceId = row.resource_id as string;
      const entity = TYPE_ENTITY[exploreGroups[group].type];
      hashId(resourceId);
      entities[entity].ids.add(idHash[0], idHash[1], idHash[2], ((refKind(entity, 'explore_items', 'resource_id') << ROW_BITS) | exploreItems.length) >>> 0);
      exploreItems.push({ group, position: num(row.position, NO_POSITION), line, resourceId });
    });
    // The references' records go into the sorters after every entity row, file by file in a fixed
    // order whichever thread read them: a sort is stable and an entity's own rows went in first,
    // which is all resolving needs.
    const parsed = await parseRefFiles(refsJob(REF_FILES.filter((f) => REFS_READ_HERE.has(f))), onRows);
    return { parsed, exploreGroups, exploreItems };
  };
  const [{ parsed: here, exploreGroups, exploreItems }, there] = await besideWorker(worker, readHere);
  const refs = {} as Record<RefFile, ParsedRefFile>;
  const edgeRecords = new Map<EdgeRecordFile, EdgeRecordsWritten>();
  for (const done of [here, there]) {
    log.merge(done);
    for (const { file, read: fileRead, rows, shards, rejected } of done.files) {
      read.set(file, fileRead);
      refs[file] = { rows, lines: refPaths[file].lines, columns: refPaths[file].columns };
      if (isEdgeRecordFile(file)) edgeRecords.set(file, { shards, rejected });
    }
  }
  for (const file of REF_FILES) {
    for (const [column, entity] of Object.entries(REF_FILE_RULES[file].targets)) addRecords(refPaths[file].records[column], entities[entity].ids);
  }
  addRecords(refPaths.files.ownIds!, fileIds);
  return { entities, refs, fileIds, genres, exploreGroups, exploreItems, read, edgeRecords };
}

/** Adds a file of sorter records (u32 x 4 each, parse-refs.ts) to `sorter`. */
function addRecords(path: string, sorter: FixedSorter): void {
  const words = mapU32Column(path);
  for (let i = 0; i + 3 < words.length; i += 4) sorter.add(words[i], words[i + 1], words[i + 2], words[i + 3]);
}
