import { termHashCapacity } from '../../index-format/search/search-sections.js';
import type { ShardWriter } from '../../index-format/shards/shard-writer.js';
import { u32Bytes } from '../../index-format/u32.js';
import { mapU32Column, NumberColumnWriter } from '../spill/columns.js';
import type { FixedSorter } from '../../sort/fixed-sort.js';

/** Slots written to the shard at a time. */
const CHUNK_SLOTS = 1 << 16;

/**
 * Writes terms.hash (the linear-probing table of [hash, term id + 1] the reader probes, terms
 * inserted in id order) slot by slot, without the table in memory. Inserting in id order puts
 * each term in the first slot from its home not taken by a smaller id, which is what a scan of
 * the slots in order gives when each slot takes the smallest id waiting for it (homed at or
 * before it and not yet placed): the terms are sorted by home, and the scan keeps only the
 * waiting ids (a cluster's worth). A cluster that runs past the last slot wraps to slot 0: a
 * first scan finds the ids still waiting at the end (the table is at most half full, so the
 * scan has passed an empty slot before and its carry does not depend on where it began), a
 * second starts with them, places them before it meets an empty slot, and so skips them when it
 * reaches their homes again.
 *
 * `keyHashes`: hashKey of each term by id (mapped). `sorter`: width 2, keyed on its first word.
 */
export function writeTermHash(writer: ShardWriter, keyHashes: Uint32Array, sorter: FixedSorter, homesPath: string): void {
  const capacity = termHashCapacity(keyHashes.length);
  const mask = capacity - 1;
  for (let id = 0; id < keyHashes.length; id++) sorter.add(keyHashes[id] & mask, id);
  const homes = new NumberColumnWriter(homesPath, 'u32');
  sorter.drain((words, at) => {
    homes.push(words[at]);
    homes.push(words[at + 1]);
  });
  homes.finish();
  const byHome = mapU32Column(homesPath);
  const carried = scanSlots(byHome, capacity, [], () => undefined);
  const chunk = new Uint32Array(CHUNK_SLOTS * 2);
  let filled = 0;
  scanSlots(byHome, capacity, carried, (id) => {
    chunk[filled * 2] = id < 0 ? 0 : keyHashes[id];
    chunk[filled * 2 + 1] = id + 1;
    if (++filled === CHUNK_SLOTS) {
      writer.write(u32Bytes(chunk));
      filled = 0;
    }
  });
  writer.write(u32Bytes(chunk.subarray(0, filled * 2)));
}

/**
 * One scan of the slots in order over (home, id) pairs sorted by home (ties by id), starting with
 * the `carried` ids waiting: each slot takes the smallest waiting id, or none (-1). Returns the
 * ids still waiting after the last slot.
 */
function scanSlots(byHome: Uint32Array, capacity: number, carried: readonly number[], onSlot: (id: number) => void): number[] {
  const heap = new MinHeap(carried);
  const wrapped = new Set(carried);
  let next = 0;
  for (let slot = 0; slot < capacity; slot++) {
    for (; next < byHome.length && byHome[next] === slot; next += 2) if (!wrapped.has(byHome[next + 1])) heap.push(byHome[next + 1]);
    onSlot(heap.size > 0 ? heap.pop() : -1);
  }
  return heap.drain();
}

/** A binary min-heap of ids: as large as the longest run of taken slots. */
class MinHeap {
  private readonly items: number[] = [];

  constructor(items: readonly number[]) {
    for (const item of items) this.push(item);
  }

  get size(): number {
    return this.items.length;
  }

  push(item: number): void {
    const items = this.items;
    let i = items.push(item) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent] <= item) break;
      items[i] = items[parent];
      i = parent;
    }
    items[i] = item;
  }

  pop(): number {
    const items = this.items;
    const top = items[0];
    const last = items.pop()!;
    if (items.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= items.length) break;
        const c = l + 1 < items.length && items[l + 1] < items[l] ? l + 1 : l;
        if (items[c] >= last) break;
        items[i] = items[c];
        i = c;
      }
      items[i] = last;
    }
    return top;
  }

  drain(): number[] {
    return [...this.items];
  }
}
