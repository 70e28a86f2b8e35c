import { compareLocalIds } from '../../catalog/local-id-order.js';
import { nameSortKey, releaseDateKey } from '../sort-keys.js';

/** What a precomputed order compares of a record (records.ts). */
export interface SortableRecord {
  readonly id: string;
  readonly name: string;
  readonly popularity: number;
  readonly dateAdded: string | null;
  readonly releaseDate?: string | null;
}

/** A record's key in one order, made once and compared many times. */
export interface SortKey {
  readonly id: string;
  readonly value: string | number;
}

/**
 * The compile's orders (orders-build/, test/helpers/in-memory-orders.ts), as a comparison of two
 * records: by name (NFKC, lower case, by code unit), date added, release date or popularity,
 * missing values last in either direction, ties by local id ascending. `popularity` descends, as
 * do the `-` orders.
 */
export function sortKeyOf(sort: string, record: SortableRecord): SortKey {
  const field = sort.startsWith('-') ? sort.slice(1) : sort;
  let value: string | number;
  if (field === 'name') value = nameSortKey(record.name);
  else if (field === 'dateAdded') value = record.dateAdded ? Date.parse(record.dateAdded) : Number.NaN;
  else if (field === 'releaseDate') value = releaseDateKey(record.releaseDate ?? undefined);
  else if (field === 'popularity') value = Number(record.popularity);
  else throw new Error(`no sort key for order ${sort}`);
  return { id: record.id, value };
}

/** The comparison of two keys of order `sort`. */
export function compareSortKeys(sort: string): (a: SortKey, b: SortKey) => number {
  const descending = sort.startsWith('-') || sort === 'popularity';
  return (a, b) => {
    const byValue = compareValues(a.value, b.value, descending);
    return byValue !== 0 ? byValue : compareLocalIds(a.id, b.id);
  };
}

function compareValues(a: string | number, b: string | number, descending: boolean): number {
  if (typeof a === 'number' && typeof b === 'number') {
    const aMissing = Number.isNaN(a);
    const bMissing = Number.isNaN(b);
    if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
    return descending ? b - a : a - b;
  }
  const c = a < b ? -1 : a > b ? 1 : 0;
  return descending ? -c : c;
}
