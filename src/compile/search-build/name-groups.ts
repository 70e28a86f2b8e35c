import { NAME_GROUP_MIN, NAME_GROUP_SCAN, nameGroupBlock } from '../../index-format/search/name-groups.js';
import type { SearchIndex } from '../../index-format/search/search-index.js';

/** Positions of `names.order` compared at a time: a group of NAME_GROUP_MIN spans two of them. */
const STRIDE = NAME_GROUP_MIN >>> 1;

/**
 * Hands `add` the block of every group of NAME_GROUP_MIN or more documents named alike, in
 * `names.order` order (index-format/search/name-groups.ts). A group that large holds two positions
 * STRIDE apart, so the walk compares names STRIDE apart and reads a group's bounds only where
 * two agree: about one name comparison per STRIDE documents. Nothing when the index has no
 * credited artists (artists, playlists).
 */
export function forEachNameGroup(index: SearchIndex, add: (start: number, block: Uint32Array) => void): void {
  const artistOffsets = index.u32('docartist.offsets');
  const artistTerms = index.u32('docartist.targets');
  if (artistTerms.length === 0) return;
  const order = index.u32('names.order');
  let s = 0;
  while (s + STRIDE < order.length) {
    const name = index.name(order[s]);
    if (!index.nameEquals(order[s + STRIDE], Buffer.from(name, 'utf8'))) {
      s += STRIDE;
      continue;
    }
    const range = index.exactNameRange(name);
    if (range.to - range.from >= NAME_GROUP_MIN) {
      const size = Math.min(range.to - range.from, NAME_GROUP_SCAN);
      add(
        range.from,
        nameGroupBlock(size, (p, term) => {
          const rank = order[range.from + p];
          for (let k = artistOffsets[rank]; k < artistOffsets[rank + 1]; k++) term(artistTerms[k]);
        }),
      );
    }
    s = range.to;
  }
}
