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
  const { inputs } = started;
  const { count, releaseDate } = inputs;
  const label = options.label ?? 'entity';
  const phase = timedPhases(options);
  const idRank = mapU32Column(started.idRank);
  const idOrder = mapU32Column(started.idOrder);
  const orders = new Map<string, string>();
  const byName = phase('names', () => buildNameOrders(inputs.names, idRank, spill, budgetBytes, label));
  orders.set('name', byName.name);
  orders.set('-name', byName.reversed);
  const byDateAdded = phase('dateAdded', () => buildNumberOrders(inputs.dateAdded, idOrder, spill, budgetBytes, `${label}.dateAdded`));
  orders.set('dateAdded', byDateAdded.ascending);
  orders.set('-dateAdded', byDateAdded.descending);
  if (releaseDate) {
    const byRelease = phase('releaseDate', () => buildNumberOrders(releaseDate, idOrder, spill, budgetBytes, `${label}.releaseDate`));
    orders.set('releaseDate', byRelease.ascending);
    orders.set('-releaseDate', byRelease.descending);
  }
  orders.set('popularity', started.popularity);

  rmSync(started.idOrder, { force: true });

  const ranks = phase('ranks', () => {
    const files = new Map<string, string>();
    const slice = rankSlice(count, budgetBytes);
    for (const [name, orderPath] of orders) {
      const rankPath = spill.file(`${label}.${name}.rank.u32`);
      invertOrderFile(orderPath, rankPath, slice);
      files.set(name, rankPath);
    }
    return files;
  });
  return { idRank: started.idRank, orders, ranks };
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
