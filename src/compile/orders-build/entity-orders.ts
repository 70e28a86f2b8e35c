import { rmSync } from 'node:fs';
import { mapU32Column, type StringColumn } from '../spill/columns.js';
import type { SpillDir } from '../spill/spill-dir.js';
import { buildIdRanks } from './id-ranks.js';
import { invertOrderFile, rankSlice } from './invert-order.js';
import { buildNameOrders } from './name-orders.js';
import { buildDescendingNumberOrder, buildNumberOrders } from './number-orders.js';

/** One entity type's columns, by ordinal: what its orders are computed from. */
export interface EntityOrderInputs {
  readonly count: number;
  /** Local ids. */
  readonly ids: StringColumn;
  /** Display names (sorted by nameSortKey). */
  readonly names: StringColumn;
  /** Epoch ms, NaN when missing (a mapped column). */
  readonly dateAdded: Float64Array;
  readonly popularity: Float64Array;
  /** YYYYMMDD keys, NaN when missing; when present the type has release-date orders. */
  readonly releaseDate?: Float64Array;
}

/** u32 column files in the spill directory, each of `count` values. */
export interface EntityOrderFiles {
  /** Position of each ordinal's local id in local-id order. */
  readonly idRank: string;
  /** Order name -> ordinals in that order; in the order the `*.orders.arr` shard lists them. */
  readonly orders: Map<string, string>;
  /** Order name -> rank of each ordinal in that order (the inverse permutation). */
  readonly ranks: Map<string, string>;
}

export interface EntityOrderOptions {
  /** Names the files (`songs`, `albums`): for whoever reads the spill directory. */
  readonly label?: string;
  /** Told when each phase ends (ids, names, dateAdded, releaseDate, popularity, ranks), with its seconds. */
  readonly onPhase?: (phase: string, seconds: number) => void;
}

/**
 * Every order of one entity type, value for value what entityOrders in derive.ts computes, out of
 * core: sorted in FixedSorter and ExternalSorter runs and written to column files, so memory is
 * the budget (one sorter or one rank slice at a time, each given the whole of it) and never
 * grows with the catalog. The caller maps the files (mapU32Column).
 *
 * Sorts: local ids (fixed records when every key fits 12 bytes, else byte keys), names (byte
 * keys), dateAdded, releaseDate and popularity (fixed records, fed in id order). `-name`,
 * `-dateAdded` and `-releaseDate` come from the ascending order's groups of equal keys, and
 * ranks from inverting each order file, with no sort.
 *
 * Anonymous memory: the budget, plus what the garbage collector has not yet taken back of the
 * previous phase's arena. idRank and the ids' order are read through mappings (file pages).
 */
export function buildEntityOrders(inputs: EntityOrderInputs, spill: SpillDir, budgetBytes: number, options: EntityOrderOptions = {}): EntityOrderFiles {
  return finishEntityOrders(startEntityOrders(inputs, spill, budgetBytes, options), spill, budgetBytes, options);
}

/** The orders of one entity type that are built first: by id (for ties) and by popularity. */
export interface StartedEntityOrders {
  readonly inputs: EntityOrderInputs;
  readonly idRank: string;
  readonly idOrder: string;
  /** Ordinals by descending popularity, ties by local id: all the search index needs. */
  readonly popularity: string;
}

/**
 * The first half of buildEntityOrders: ids and popularity, so that the search build (which
 * needs only the popularity order) can start while the other orders are built.
 */
export function startEntityOrders(inputs: EntityOrderInputs, spill: SpillDir, budgetBytes: number, options: EntityOrderOptions = {}): StartedEntityOrders {
  const label = options.label ?? 'entity';
  checkLengths(inputs);
  const phase = timedPhases(options);
  const byId = phase('ids', () => buildIdRanks(inputs.ids, inputs.count, spill, budgetBytes, label));
  const idOrder = mapU32Column(byId.idOrder);
  const popularity = phase('popularity', () => buildDescendingNumberOrder(inputs.popularity, idOrder, spill, budgetBytes, `${label}.popularity`));
  return { inputs, idRank: byId.idRank, idOrder: byId.idOrder, popularity };
}

/** The second half: names, dates and every order's ranks. */
export function finishEntityOrders(started: StartedEntityOrders, spill: SpillDir, budgetBytes: number, options: EntityOrderOptions = {}): EntityOrderFiles {
  const { count, releaseDate } = started.inputs;
  return addReleaseOrders(continueEntityOrders(started, spill, budgetBytes, options), count, releaseDate, spill, budgetBytes, options);
}

/**
 * An entity type's orders but those by release date, as files only: what a worker hands back
 * (orders-beside-worker.ts) while the release dates are still being derived on the main thread.
 */
export interface OrdersBeforeRelease {
  readonly idRank: string;
  /** Kept for the release-date orders' ties; removed by addReleaseOrders. */
  readonly idOrder: string;
  readonly popularity: string;
  /** Order name -> file: name, -name, dateAdded, -dateAdded. */
  readonly orders: readonly (readonly [string, string])[];
  /** Order name -> rank file, for those orders and popularity. */
  readonly ranks: readonly (readonly [string, string])[];
}

/** Names and dateAdded orders, and the ranks of every order so far (popularity's too). */
export function continueEntityOrders(
  started: StartedEntityOrders,
  spill: SpillDir,
  budgetBytes: number,
  options: EntityOrderOptions = {},
): OrdersBeforeRelease {
  const { inputs } = started;
  const label = options.label ?? 'entity';
  const phase = timedPhases(options);
  const idRank = mapU32Column(started.idRank);
  const idOrder = mapU32Column(started.idOrder);
  const byName = phase('names', () => buildNameOrders(inputs.names, idRank, spill, budgetBytes, label));
  const byDateAdded = phase('dateAdded', () => buildNumberOrders(inputs.dateAdded, idOrder, spill, budgetBytes, `${label}.dateAdded`));
  const orders: [string, string][] = [
    ['name', byName.name],
    ['-name', byName.reversed],
    ['dateAdded', byDateAdded.ascending],
    ['-dateAdded', byDateAdded.descending],
  ];
  const ranks = phase('ranks', () => rankFiles([...orders, ['popularity', started.popularity]], inputs.count, spill, budgetBytes, label));
  return { idRank: started.idRank, idOrder: started.idOrder, popularity: started.popularity, orders, ranks };
}

/**
 * The release-date orders (when the type has release dates) and their ranks, then every order
 * in the shard's order: name, -name, dateAdded, -dateAdded, releaseDate, -releaseDate, popularity.
 */
export function addReleaseOrders(
  before: OrdersBeforeRelease,
  count: number,
  releaseDate: Float64Array | undefined,
  spill: SpillDir,
  budgetBytes: number,
  options: EntityOrderOptions = {},
): EntityOrderFiles {
  const label = options.label ?? 'entity';
  const phase = timedPhases(options);
  const release: [string, string][] = [];
  if (releaseDate) {
    if (releaseDate.length < count) throw new RangeError(`entity orders: releaseDate holds ${releaseDate.length} values, fewer than the ${count} entities`);
    const byRelease = phase('releaseDate', () => buildNumberOrders(releaseDate, mapU32Column(before.idOrder), spill, budgetBytes, `${label}.releaseDate`));
    release.push(['releaseDate', byRelease.ascending], ['-releaseDate', byRelease.descending]);
  }
  rmSync(before.idOrder, { force: true });
  const releaseRanks = release.length === 0 ? [] : phase('ranks', () => rankFiles(release, count, spill, budgetBytes, label));
  const orders = new Map([...before.orders, ...release, ['popularity', before.popularity]]);
  const rankOf = new Map([...before.ranks, ...releaseRanks]);
  const ranks = new Map([...orders.keys()].map((name) => [name, rankOf.get(name)!]));
  return { idRank: before.idRank, orders, ranks };
}

/** Each order's ranks (the inverse permutation), as [name, file]. */
function rankFiles(orders: readonly (readonly [string, string])[], count: number, spill: SpillDir, budgetBytes: number, label: string): [string, string][] {
  const slice = rankSlice(count, budgetBytes);
  return orders.map(([name, orderPath]) => {
    const rankPath = spill.file(`${label}.${name}.rank.u32`);
    invertOrderFile(orderPath, rankPath, slice);
    return [name, rankPath];
  });
}

/** Runs a phase and tells `onPhase` its name and seconds. */
function timedPhases(options: EntityOrderOptions): <T>(name: string, run: () => T) => T {
  let started = performance.now();
  return (name, run) => {
    const result = run();
    const now = performance.now();
    options.onPhase?.(name, (now - started) / 1000);
    started = now;
    return result;
  };
}

function checkLengths(inputs: EntityOrderInputs): void {
  const { count } = inputs;
  const columns: [string, { length: number } | undefined][] = [
    ['ids', inputs.ids],
    ['names', inputs.names],
    ['dateAdded', inputs.dateAdded],
    ['popularity', inputs.popularity],
    ['releaseDate', inputs.releaseDate],
  ];
  for (const [name, column] of columns) {
    if (column && column.length < count) throw new RangeError(`entity orders: ${name} holds ${column.length} values, fewer than the ${count} entities`);
  }
}
