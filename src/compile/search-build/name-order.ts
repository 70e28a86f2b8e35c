import type { NumberColumnWriter, StringColumn } from '../spill/columns.js';
import type { ExternalSorter } from '../spill/external-sort.js';

/** names.order: the ranks sorted by normalised name as UTF-8 bytes, ties by rank (the sort is stable). */
export function orderNames(names: StringColumn, sorter: ExternalSorter, order: NumberColumnWriter): void {
  const rank = Buffer.alloc(4);
  for (let r = 0; r < names.length; r++) {
    rank.writeUInt32LE(r, 0);
    sorter.add(names.bytes(r), rank);
  }
  sorter.drain((buffer, _keyStart, keyEnd) => order.push(buffer.readUInt32LE(keyEnd)));
}
