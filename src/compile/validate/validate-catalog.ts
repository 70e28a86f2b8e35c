import type { RawFileName } from '../../raw/schema.js';
import type { MemoryBudget } from '../memory-budget.js';
import type { IssueLog, RawFileRead } from '../raw-file.js';
import type { SpillDir } from '../spill/spill-dir.js';
import { checkRefs, type CheckedRefs } from './check-refs.js';
import { DeferredIssues } from './deferred-issues.js';
import type { EntityFiles } from './entity-files.js';
import { parseRaw, type EdgeRecordsWritten, type FirstPassRecords } from './parse-raw.js';
import type { EdgeRecordFile } from '../write/edge-record-rows.js';
import type { EntityName } from './raw-refs.js';
import { resolveIds } from './resolve-ids.js';

/** What the first pass leaves for the rest of the compile: column files, no rows in memory. */
export interface ValidatedCatalog {
  readonly entities: Record<EntityName, EntityFiles>;
  readonly edges: CheckedRefs;
  /** Genre display names by genre id. */
  readonly genres: readonly string[];
  /** Each raw file's presence, row count and digest. */
  readonly read: ReadonlyMap<RawFileName, RawFileRead>;
  /** The record tables the first pass wrote (files, lyrics) and the rows it rejected in each. */
  readonly edgeRecords: ReadonlyMap<EdgeRecordFile, EdgeRecordsWritten>;
}

/**
 * The first pass: reads and checks every raw file (parse-raw), finds duplicate ids and resolves
 * references by sorting (resolve-ids), checks the rules between rows (check-refs), then logs the
 * rows those sorts rejected with their cells. Memory: the sorters' share of the budget.
 * `onResolved` hears the entities' files as soon as they are final (before the checks, which
 * change no entity row), to start work beside the checks: the checks then sort within half of
 * the budget's room, leaving the rest to that work.
 */
export async function validateCatalog(
  dir: string,
  spill: SpillDir,
  budget: MemoryBudget,
  log: IssueLog,
  records: FirstPassRecords,
  onRow?: () => void,
  onResolved?: (entities: Readonly<Record<EntityName, EntityFiles>>) => void,
  knownGenres: readonly string[] = [],
): Promise<ValidatedCatalog> {
  const parsed = await parseRaw(dir, spill, budget, log, records, onRow, knownGenres);
  const deferred = new DeferredIssues();
  const resolved = await resolveIds(parsed, spill, budget, deferred);
  onResolved?.(resolved.entities);
  const edges = checkRefs(parsed, resolved, spill, onResolved ? budget.share(0.5) : budget, deferred);
  await deferred.commit(dir, log);
  return { entities: resolved.entities, edges, genres: parsed.genres.names, read: parsed.read, edgeRecords: parsed.edgeRecords };
}
