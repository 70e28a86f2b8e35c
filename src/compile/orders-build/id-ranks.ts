import { basename } from 'node:path';
import { NumberColumnWriter, type StringColumn } from '../spill/columns.js';
import { ExternalSorter } from '../spill/external-sort.js';
import type { SpillDir } from '../spill/spill-dir.js';
import { invertOrderFile, rankSlice } from './invert-order.js';
import { maxLocalIdKeyBytes, writeLocalIdKey } from './local-id-key.js';

/**
 * idRank[ordinal] = position of the ordinal's local id in local-id order, as localIdRanks in
 * orders.ts computes it, written as a u32 column file: the ids sorted as local-id keys
 * (local-id-key.ts) with their ordinals, drained into the ordinals in id order (`idOrder`, also
 * returned: the caller removes it), inverted.
 * Local ids are unique within a type (the first pass rejects duplicates); for equal ids the
 * earlier ordinal would come first.
 */
export function buildIdRanks(ids: StringColumn, count: number, spill: SpillDir, budgetBytes: number, label: string): { idRank: string; idOrder: string } {
  const idOrder = spill.file(`${label}.id-order.u32`);
  writeIdOrder(ids, count, spill, budgetBytes, label, idOrder);
  const idRank = spill.file(`${label}.id-rank.u32`);
  invertOrderFile(idOrder, idRank, rankSlice(count, budgetBytes));
  return { idRank, idOrder };
}

/** The ordinals in local-id order. Its own function so the sorter's arena is garbage once it returns. */
function writeIdOrder(ids: StringColumn, count: number, spill: SpillDir, budgetBytes: number, label: string, idOrderPath: string): void {
  const sorter = new ExternalSorter(spill.path, basename(spill.file(`${label}.ids`)), budgetBytes);
  let key = Buffer.allocUnsafe(256);
  const ordinal = Buffer.allocUnsafe(4);
  for (let i = 0; i < count; i++) {
    const id = ids.bytes(i);
    if (maxLocalIdKeyBytes(id.length) > key.length) key = Buffer.allocUnsafe(maxLocalIdKeyBytes(id.length) * 2);
    const length = writeLocalIdKey(id, key);
    ordinal.writeUInt32LE(i, 0);
    sorter.add(key.subarray(0, length), ordinal);
  }
  const idOrder = new NumberColumnWriter(idOrderPath, 'u32');
  sorter.drain((buffer, _keyStart, keyEnd) => idOrder.push(buffer.readUInt32LE(keyEnd)));
  idOrder.finish();
}
