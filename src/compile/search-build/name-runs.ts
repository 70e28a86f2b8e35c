import { NAME_RUN_MIN, nameRunTable } from '../../index-format/search/name-runs.js';
import type { SearchIndex } from '../../index-format/search/search-index.js';
import { hashKey } from '../../index-format/tables/key-table.js';
import { GrowableU32 } from '../../index-format/u32.js';

/** Positions of `names.order` compared at a time: a run of NAME_RUN_MIN holds two positions this far apart, one of them on the walk. */
const STRIDE = NAME_RUN_MIN >>> 1;

/**
 * The `runs.hash` section (index-format/search/name-runs.ts) of a written search index: every
 * name held by NAME_RUN_MIN documents or more, with its run of `names.order`. The walk compares
 * names STRIDE apart and reads a run's bounds only where two agree. Memory: three words per run
 * while they are gathered, then the table (at most half full).
 */
export function nameRunSection(index: SearchIndex): Uint32Array {
  const order = index.u32('names.order');
  const hashes = new GrowableU32();
  const froms = new GrowableU32();
  const tos = new GrowableU32();
  let s = 0;
  while (s + STRIDE < order.length) {
    if (!index.namesEqual(order[s], order[s + STRIDE])) {
      s += STRIDE;
      continue;
    }
    const name = index.name(order[s]);
    const range = index.exactNameRange(name);
    if (range.to - range.from >= NAME_RUN_MIN) {
      hashes.push(hashKey(name));
      froms.push(range.from);
      tos.push(range.to);
    }
    s = range.to;
  }
  return nameRunTable(hashes.view(), froms.view(), tos.view());
}
