import type { FixedSorter } from '../../sort/fixed-sort.js';
import type { NumberColumnWriter, StringColumn } from '../spill/columns.js';

/**
 * The `names.hashes` section (index-format/search/name-range.ts): for every distinct normalised
 * name, [nameBytesHash, from, to) of its run in `names.order`, sorted by hash then position.
 * `order` and `hashes` are the names order and each position's hash (orderNames); two
 * neighbours with the same hash are one name only when their bytes agree. Out of core: the runs
 * go through `sorter` (three words, keyed on the first two), drained into `out`.
 */
export function writeNameHashTable(order: Uint32Array, hashes: Uint32Array, names: StringColumn, sorter: FixedSorter, out: NumberColumnWriter): void {
  let from = 0;
  for (let pos = 1; pos <= order.length; pos++) {
    if (pos < order.length && hashes[pos] === hashes[from] && names.bytes(order[pos]).equals(names.bytes(order[from]))) continue;
    sorter.add(hashes[from], from, pos);
    from = pos;
  }
  sorter.drain((words, at) => {
    out.push(words[at]);
    out.push(words[at + 1]);
    out.push(words[at + 2]);
  });
}
