import type { RawFileName } from '../../raw/schema.js';
import type { MemoryBudget } from '../memory-budget.js';
import type { IssueLog, RawFileRead } from '../raw-file.js';
import { mapU32Column } from '../spill/columns.js';
import { FixedSorter } from '../../sort/fixed-sort.js';
import type { SpillDir } from '../spill/spill-dir.js';
import { besideWorker, eachRow } from '../worker-job.js';
import { EntityFilesWriter, type EntityFiles } from './entity-files.js';
import { GenreNames } from './genre-names.js';
import type { WrittenShard } from '../../index-format/shards/shard-writer.js';
import { isEdgeRecordFile, type EdgeRecordFile } from '../write/edge-record-rows.js';
import { parseRefFiles, REF_FILE_RULES, startParseRefs, type ParsedRefName, type ParseRefsJob, type RefFilePaths } from './parse-refs.js';
import { ENTITY_NAMES, type EntityName, type RefFile } from './raw-refs.js';
import {
  CATALOG_TYPE,
  type ExploreGroupRow,
  type ExploreItemRow,
  type FirstPass,
  type ParsedEntity,
  readEntityFiles,
  readExploreFeed,
} from './read-entity-files.js';

export type { ExploreGroupRow, ExploreItemRow, ParsedEntity } from './read-entity-files.js';

/** A file of references, as the first pass keeps it: rows numbered among its cell-valid rows. */
export interface ParsedRefFile {
  readonly rows: number;
  /** u32 column: the line of each row. */
  readonly lines: string;
  /** Other per-row columns, by name (see parseRaw for which). */
  readonly columns: Readonly<Record<string, string>>;
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

/**
 * The first pass proper: reads every raw file once, in order, checks each cell, and keeps what
 * later phases need as column files and sorted runs; nothing per row stays in memory. Rules
 * between rows (duplicate ids, references, conflicts) are checked afterwards, by sorting
 * (resolve-ids.ts, check-refs.ts).
 */
export async function parseRaw(
  dir: string,
  spill: SpillDir,
  budget: MemoryBudget,
  log: IssueLog,
  records: FirstPassRecords,
  onRow?: () => void,
  knownGenres: readonly string[] = [],
): Promise<ParsedCatalog> {
  const sorterBytes = budget.sorterBytes(ENTITY_NAMES.length + 4);
  const read = new Map<RawFileName, RawFileRead>();
  const genres = new GenreNames(knownGenres);
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
  const refPaths = refPathsIn(spill);
  const refsJob = (files: readonly ParsedRefName[]): ParseRefsJob => ({ dir, records, files: files.map((file) => ({ file, paths: refPaths[file] })) });
  const onRows = eachRow(onRow);
  const worker = startParseRefs(refsJob(REF_FILES.filter((f) => !REFS_READ_HERE.has(f))), onRows);
  worker.catch(() => undefined); // awaited below

  const pass: FirstPass = { dir, log, onRow, read, genres, entities, writers };
  /** Everything this thread reads: the entity files, the explore feed, then its files of references. */
  const readHere = async () => {
    await readEntityFiles(pass);
    const { exploreGroups, exploreItems } = await readExploreFeed(pass);
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
  addRefRecords(refPaths, entities, fileIds);
  return { entities, refs, fileIds, genres, exploreGroups, exploreItems, read, edgeRecords };
}

/** Where each file of references is read to: its lines, columns and sorter records, in the spill directory. */
function refPathsIn(spill: SpillDir): Record<ParsedRefName, RefFilePaths> {
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
  return refPaths;
}

/**
 * The references' records into the entities' sorters, after every entity row, file by file in a
 * fixed order whichever thread read them; then files.csv's own ids.
 */
function addRefRecords(refPaths: Record<ParsedRefName, RefFilePaths>, entities: Record<EntityName, ParsedEntity>, fileIds: FixedSorter): void {
  for (const file of REF_FILES) {
    for (const [column, entity] of Object.entries(REF_FILE_RULES[file].targets)) addRecords(refPaths[file].records[column], entities[entity].ids);
  }
  addRecords(refPaths.files.ownIds!, fileIds);
}

/** Adds a file of sorter records (u32 x 4 each, parse-refs.ts) to `sorter`. */
function addRecords(path: string, sorter: FixedSorter): void {
  const words = mapU32Column(path);
  for (let i = 0; i + 3 < words.length; i += 4) sorter.add(words[i], words[i + 1], words[i + 2], words[i + 3]);
}
