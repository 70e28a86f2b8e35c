import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import { NumberColumnWriter, type StringColumn } from '../spill/columns.js';
import { ExternalSorter } from '../../sort/external-sort.js';
import type { SpillDir } from '../spill/spill-dir.js';
import { nameSortKey } from '../sort-keys.js';
import { maxCodeUnitBytes, writeCodeUnitBytes } from './code-unit-bytes.js';
import { writeGroupsReversed } from './reverse-groups.js';

/**
 * The `name` and `-name` orders as orderByString and orderByDense(reverseDense(...)) in
 * orders.ts compute them, as u32 column files: one byte sort of (sort key, id rank) records,
 * its groups of equal sort keys read back last first for `-name`.
 *
 * orderByString sorts the strings `${key}\u0000${idRank in base 36, padded}`. When no key holds
 * U+0000 (raw validation rejects control characters in names), that is the order of the sort
 * key's code-unit bytes, a 0x00 byte and the id rank as 4 big-endian bytes. If some key does
 * hold U+0000, the NUL can line up against another record's rank digits, so the sort is done
 * again on the very strings orderByString sorts.
 */
export function buildNameOrders(
  names: StringColumn,
  idRank: Uint32Array,
  spill: SpillDir,
  budgetBytes: number,
  label: string,
): { name: string; reversed: string } {
  const name = spill.file(`${label}.name.order.u32`);
  const groupStarts = spill.file(`${label}.name.groups.u32`);
  if (!writeSortedNames(names, idRank, spill, budgetBytes, label, false, name, groupStarts)) {
    writeSortedNames(names, idRank, spill, budgetBytes, label, true, name, groupStarts);
  }
  const reversed = spill.file(`${label}.-name.order.u32`);
  writeGroupsReversed(name, groupStarts, idRank.length, reversed);
  rmSync(groupStarts, { force: true });
  return { name, reversed };
}

/**
 * Sorts the names and writes the order and its group starts; returns false (and writes nothing)
 * when `exact` is false and a sort key holds U+0000.
 */
function writeSortedNames(
  names: StringColumn,
  idRank: Uint32Array,
  spill: SpillDir,
  budgetBytes: number,
  label: string,
  exact: boolean,
  orderPath: string,
  groupStartsPath: string,
): boolean {
  const n = idRank.length;
  const rankDigits = Math.max(1, n.toString(36).length);
  // Bytes after the sort key: a 0x00 and the id rank (4 bytes, or base-36 digits when exact).
  const tail = exact ? 1 + rankDigits : 5;
  const sorter = new ExternalSorter(spill.path, basename(spill.file(`${label}.names`)), budgetBytes);
  let key = Buffer.allocUnsafe(1024);
  const ordinal = Buffer.allocUnsafe(4);
  for (let i = 0; i < n; i++) {
    const sortKey = nameSortKey(names.get(i));
    if (!exact && sortKey.indexOf('\u0000') >= 0) {
      sorter.dispose();
      return false;
    }
    const max = maxCodeUnitBytes(sortKey) + tail;
    if (max > key.length) key = Buffer.allocUnsafe(max * 2);
    let length = writeCodeUnitBytes(sortKey, key, 0);
    key[length++] = 0;
    if (exact) length += key.write(idRank[i].toString(36).padStart(rankDigits, '0'), length, 'latin1');
    else length = key.writeUInt32BE(idRank[i], length);
    ordinal.writeUInt32LE(i, 0);
    sorter.add(key.subarray(0, length), ordinal);
  }

  const order = new NumberColumnWriter(orderPath, 'u32');
  const starts = new NumberColumnWriter(groupStartsPath, 'u32');
  let previous = Buffer.allocUnsafe(1024);
  let previousLength = -1;
  let position = 0;
  sorter.drain((buffer, keyStart, keyEnd) => {
    const keyPartEnd = keyEnd - tail;
    const length = keyPartEnd - keyStart;
    if (length !== previousLength || buffer.compare(previous, 0, length, keyStart, keyPartEnd) !== 0) {
      starts.push(position);
      if (length > previous.length) previous = Buffer.allocUnsafe(length * 2);
      previousLength = buffer.copy(previous, 0, keyStart, keyPartEnd);
    }
    order.push(buffer.readUInt32LE(keyEnd));
    position++;
  });
  starts.push(position);
  order.finish();
  starts.finish();
  return true;
}
