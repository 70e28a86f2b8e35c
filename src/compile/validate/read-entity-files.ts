import { deriveOmmId, type CatalogType } from '../../catalog/catalog-ids.js';
import { RAW_FILE_BY_NAME, type RawFileName } from '../../raw/schema.js';
import type { FixedSorter } from '../../sort/fixed-sort.js';
import type { RawIssue } from '../compile-error.js';
import { readRawFile, type IssueLog, type ParsedRow, type RawFileRead } from '../raw-file.js';
import { releaseDateKey } from '../sort-keys.js';
import type { EntityFiles, EntityFilesWriter } from './entity-files.js';
import type { GenreNames } from './genre-names.js';
import { hashId, idHash } from './id-hash.js';
import { NO_POSITION, num } from './parse-refs.js';
import { MAX_ROWS, refKind, ROW_BITS, type EntityName } from './raw-refs.js';

/*
 * The first pass over the entity files and the explore feed (parse-raw.ts reads the files of
 * references beside them): each row's cells checked, its columns written, its id hashed into
 * the entity's sorter.
 */

type Problem = Omit<RawIssue, 'file' | 'line'>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const CATALOG_TYPE: Partial<Record<EntityName, CatalogType>> = { artists: 'artist', albums: 'album', songs: 'song' };
const DERIVED_STATION = /^(artist-|album-|song-|genre-|popular)/;
const TYPE_ENTITY: Record<ExploreGroupRow['type'], EntityName> = {
  song: 'songs',
  album: 'albums',
  artist: 'artists',
  playlist: 'playlists',
  station: 'stations',
};

export interface ParsedEntity {
  readonly files: EntityFiles;
  /** (id hash, kind << 29 | row): the entity's rows (kind 0) and every reference to it. */
  readonly ids: FixedSorter;
  /** (catalog id hash, row), for catalog types. */
  readonly omm: FixedSorter | null;
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

/** What the first pass holds while it reads: where, its log, what it read, and each entity's writers and sorters. */
export interface FirstPass {
  readonly dir: string;
  readonly log: IssueLog;
  readonly onRow?: () => void;
  readonly read: Map<RawFileName, RawFileRead>;
  readonly genres: GenreNames;
  readonly entities: Record<EntityName, ParsedEntity>;
  readonly writers: Record<EntityName, EntityFilesWriter>;
}

/** Reads one raw file, each row through `handler`, and notes how it went. */
async function readFile(pass: FirstPass, name: RawFileName, handler: (row: ParsedRow, line: number) => Problem | void): Promise<void> {
  pass.read.set(name, await readRawFile(pass.dir, RAW_FILE_BY_NAME.get(name)!, pass.log, handler, { onProgress: pass.onRow }));
}

const tooMany = (file: string, rows: number): Problem | undefined =>
  rows >= MAX_ROWS ? { code: 'E_RAW_ROW', message: `${file} has more than ${MAX_ROWS - 1} rows` } : undefined;

/** The entity files in order: artists, albums, songs, playlists, stations (no derived station id). */
export async function readEntityFiles(pass: FirstPass): Promise<void> {
  await readEntity(pass, 'artists');
  await readEntity(pass, 'albums');
  await readEntity(pass, 'songs');
  await readEntity(pass, 'playlists');
  await readEntity(pass, 'stations', (row) => {
    const id = row.id as string;
    if (DERIVED_STATION.test(id))
      return {
        code: 'E_RAW_ROW',
        column: 'id',
        message: `${JSON.stringify(id)} starts with a derived station prefix (artist-, album-, song-, genre-, popular)`,
      };
    return undefined;
  });
}

/** One entity file: its columns written, each id (and catalog id) hashed into its sorter. */
async function readEntity(pass: FirstPass, name: EntityName, extra?: (row: ParsedRow) => Problem | undefined): Promise<void> {
  const { writers, entities, genres } = pass;
  const w = writers[name];
  const type = CATALOG_TYPE[name];
  const { ids, omm } = entities[name];
  await readFile(pass, name, (row, line) => {
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
}

/** The explore feed: editorial and small, its groups stay in memory; its items' resources are resolved with the other references. */
export async function readExploreFeed(pass: FirstPass): Promise<{ exploreGroups: ExploreGroupRow[]; exploreItems: ExploreItemRow[] }> {
  const { entities } = pass;
  const exploreGroups: ExploreGroupRow[] = [];
  const groupById = new Map<string, number>();
  await readFile(pass, 'explore_groups', (row, line) => {
    const id = row.id as string;
    const existing = groupById.get(id);
    if (existing !== undefined)
      return { code: 'E_RAW_DUPLICATE', column: 'id', message: `id ${JSON.stringify(id)} is already used on line ${exploreGroups[existing].line}` };
    groupById.set(id, exploreGroups.length);
    exploreGroups.push({ id, title: row.title as string, type: row.type as ExploreGroupRow['type'], position: num(row.position, NO_POSITION), line });
  });
  const exploreItems: ExploreItemRow[] = [];
  await readFile(pass, 'explore_items', (row, line) => {
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
  return { exploreGroups, exploreItems };
}
