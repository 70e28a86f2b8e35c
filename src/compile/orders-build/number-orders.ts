import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import { NumberColumnWriter } from '../spill/columns.js';
import { FixedSorter } from '../spill/fixed-sort.js';
import type { SpillDir } from '../spill/spill-dir.js';
import { MISSING_WORD, numberKeyWords } from './number-key.js';
import { writeGroupsReversed } from './reverse-groups.js';

/**
 * Orders by a numeric key as orderByNumber in orders.ts computes them (missing = NaN last, ties
 * by id rank), as u32 column files: a FixedSorter of (key high word, key low word, id rank,
 * ordinal) records sorted by their first three words.
 */

/** Bytes of a record: key high and low words, id rank, ordinal. */
const RECORD_BYTES = 16;

/** The ascending order and the descending one, read from the ascending order's groups (one sort). */
export function buildNumberOrders(keys: ArrayLike<number>, idRank: Uint32Array, spill: SpillDir, budgetBytes: number, label: string): { ascending: string; descending: string } {
  const ascending = spill.file(`${label}.order.u32`);
  const groupStarts = spill.file(`${label}.groups.u32`);
  const missingFrom = writeSortedNumbers(keys, idRank, false, spill, budgetBytes, label, ascending, groupStarts);
  const descending = spill.file(`${label}.descending.order.u32`);
  writeGroupsReversed(ascending, groupStarts, missingFrom, descending);
  rmSync(groupStarts, { force: true });
  return { ascending, descending };
}

/** The descending order alone (popularity has no ascending order). */
export function buildDescendingNumberOrder(keys: ArrayLike<number>, idRank: Uint32Array, spill: SpillDir, budgetBytes: number, label: string): string {
  const descending = spill.file(`${label}.descending.order.u32`);
  writeSortedNumbers(keys, idRank, true, spill, budgetBytes, label, descending, null);
  return descending;
}

/** Sorts and writes the order (and the start of each group of equal keys); returns where the missing keys begin. */
function writeSortedNumbers(
  keys: ArrayLike<number>,
  idRank: Uint32Array,
  descending: boolean,
  spill: SpillDir,
  budgetBytes: number,
  label: string,
  orderPath: string,
  groupStartsPath: string | null,
): number {
  const n = idRank.length;
  // No bigger an arena than the records need: a small type need not clear a whole budget's arena.
  const sorter = new FixedSorter(spill.path, basename(spill.file(label)), 4, 3, Math.min(budgetBytes, Math.max(1, n) * RECORD_BYTES * 2));
  const key = new Uint32Array(2);
  for (let i = 0; i < n; i++) {
    numberKeyWords(keys[i], descending, key);
    sorter.add(key[0], key[1], idRank[i], i);
  }

  const order = new NumberColumnWriter(orderPath, 'u32');
  const starts = groupStartsPath === null ? null : new NumberColumnWriter(groupStartsPath, 'u32');
  let position = 0;
  let missingFrom = n;
  let hi = 0;
  let lo = 0;
  sorter.drain((words, at) => {
    const h = words[at];
    const l = words[at + 1];
    if (position === 0 || h !== hi || l !== lo) {
      starts?.push(position);
      if (h === MISSING_WORD && l === MISSING_WORD) missingFrom = position;
      hi = h;
      lo = l;
    }
    order.push(words[at + 3]);
    position++;
  });
  starts?.push(position);
  order.finish();
  starts?.finish();
  return missingFrom;
}
