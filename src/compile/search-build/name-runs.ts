import { NAME_RUN_MIN, nameRunTable } from '../../index-format/search/name-runs.js';
import type { SearchIndex, TermRange } from '../../index-format/search/search-index.js';
import { hashKey } from '../../index-format/tables/key-table.js';
import { GrowableU32 } from '../../index-format/u32.js';

/**
 * Hands `visit` every run of `names.order` of `min` documents or more named alike, in name order.
 * Such a run holds two positions `min >>> 1` apart, one of them on the walk: the walk compares
 * names that far apart and reads a run's bounds only where two agree, about one comparison per
 * `min >>> 1` documents.
 */
export function forEachNameRun(index: SearchIndex, min: number, visit: (name: string, range: TermRange) => void): void {
  const order = index.u32('names.order');
  const stride = min >>> 1;
  let s = 0;
  while (s + stride < order.length) {
    if (!index.namesEqual(order[s], order[s + stride])) {
      s += stride;
      continue;
    }
    const name = index.name(order[s]);
    const range = index.exactNameRange(name);
    if (range.to - range.from >= min) visit(name, range);
    s = range.to;
  }
}

/**
 * The `runs.hash` section (index-format/search/name-runs.ts) of a written search index: every
 * name held by NAME_RUN_MIN documents or more, with its run of `names.order`. Memory: three words
 * per run while they are gathered, then the table (at most half full).
 */
export function nameRunSection(index: SearchIndex): Uint32Array {
  const hashes = new GrowableU32();
  const froms = new GrowableU32();
  const tos = new GrowableU32();
  forEachNameRun(index, NAME_RUN_MIN, (name, range) => {
    hashes.push(hashKey(name));
    froms.push(range.from);
    tos.push(range.to);
  });
  return nameRunTable(hashes.view(), froms.view(), tos.view());
}
