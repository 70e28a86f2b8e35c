import { NAME_GROUP_MIN, NAME_GROUP_SCAN, nameGroupBlock } from '../../index-format/search/name-groups.js';
import type { SearchIndex } from '../../index-format/search/search-index.js';
import { forEachNameRun } from './name-runs.js';

/**
 * Hands `add` the block of every group of NAME_GROUP_MIN or more documents named alike, in
 * `names.order` order (index-format/search/name-groups.ts), found by the name runs' walk
 * (forEachNameRun). Nothing when the index has no credited artists (artists, playlists).
 */
export function forEachNameGroup(index: SearchIndex, add: (start: number, block: Uint32Array) => void): void {
  const artistOffsets = index.u32('docartist.offsets');
  const artistTerms = index.u32('docartist.targets');
  if (artistTerms.length === 0) return;
  const order = index.u32('names.order');
  forEachNameRun(index, NAME_GROUP_MIN, (_name, range) => {
    const size = Math.min(range.to - range.from, NAME_GROUP_SCAN);
    add(
      range.from,
      nameGroupBlock(size, (p, term) => {
        const rank = order[range.from + p];
        for (let k = artistOffsets[rank]; k < artistOffsets[rank + 1]; k++) term(artistTerms[k]);
      }),
    );
  });
}
