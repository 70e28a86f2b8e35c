import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import { NumberColumnWriter } from '../spill/columns.js';
import { FixedSorter } from '../../sort/fixed-sort.js';
import type { SpillDir } from '../spill/spill-dir.js';
import { MISSING_WORD, numberKeyWords } from './number-key.js';
import { writeGroupsReversed } from './reverse-groups.js';

/**
 * Orders by a numeric key as orderByNumber in orders.ts computes them (missing = NaN last, ties
 * by id rank), as u32 column files: a FixedSorter of (key high word, key low word, ordinal)
 * records sorted by the key words. Records go in in local-id order (`idOrder`, the ordinals by
 * id), and the sorter is stable, so ties come out by id rank without the rank in the record:
 * 12 bytes and up to four radix passes a record instead of 16 and six.
 */

/** Bytes of a record: key high and low words, ordinal. */
const RECORD_BYTES = 12;

/** The ascending order and the descending one, read from the ascending order's groups (one sort). */
export function buildNumberOrders(
  keys: ArrayLike<number>,
  idOrder: Uint32Array,
  spill: SpillDir,
  budgetBytes: number,
  label: string,
): { ascending: string; descending: string } {
  const ascending = spill.file(`${label}.order.u32`);
  const groupStarts = spill.file(`${label}.groups.u32`);
  const missingFrom = writeSortedNumbers(keys, idOrder, false, spill, budgetBytes, label, ascending, groupStarts);
  const descending = spill.file(`${label}.descending.order.u32`);
  writeGroupsReversed(ascending, groupStarts, missingFrom, descending);
  rmSync(groupStarts, { force: true });
  return { ascending, descending };
}

/** The descending order alone (popularity has no ascending order). */
export function buildDescendingNumberOrder(keys: ArrayLike<number>, idOrder: Uint32Array, spill: SpillDir, budgetBytes: number, label: string): string {
  const descending = spill.file(`${label}.descending.order.u32`);
  writeSortedNumbers(keys, idOrder, true, spill, budgetBytes, label, descending, null);
  return descending;
}

/** Sorts and writes the order (and the start of each group of equal keys); returns where the missing keys begin. */
function writeSortedNumbers(
  keys: ArrayLike<number>,
  idOrder: Uint32Array,
  descending: boolean,
  spill: SpillDir,
  budgetBytes: number,
  label: string,
  orderPath: string,
  groupStartsPath: string | null,
): number {
  const n = idOrder.length;
  // No bigger an arena than the records need: a small type need not clear a whole budget's arena.
  const sorter = new FixedSorter(spill.path, basename(spill.file(label)), 3, 2, Math.min(budgetBytes, Math.max(1, n) * RECORD_BYTES * 2));
  const key = new Uint32Array(2);
  for (let k = 0; k < n; k++) {
    const ordinal = idOrder[k];
    numberKeyWords(keys[ordinal], descending, key);
    sorter.add(key[0], key[1], ordinal);
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
    order.push(words[at + 2]);
    position++;
  });
  starts?.push(position);
  order.finish();
  starts?.finish();
  return missingFrom;
}
