import { HiddenDocs } from '../index-format/search/hidden-docs.js';
import type { SearchIndex } from '../index-format/search/search-index.js';

/**
 * Marks the documents of a search index whose ordinal (as the index stores it) `hidden` says
 * are out of service, for searches to leave out as if never indexed (hidden-docs.ts): a
 * takedown's deletes set, or in a segmented snapshot the documents a later segment replaced.
 */
export function hideInIndex(index: SearchIndex, hidden: (ordinal: number) => boolean): void {
  const ordinals = index.u32('ordinals');
  const bits = new Uint8Array((ordinals.length + 8) >>> 3);
  const ranks: number[] = [];
  for (let r = 0; r < ordinals.length; r++) {
    if (hidden(ordinals[r])) {
      bits[r >>> 3] |= 1 << (r & 7);
      ranks.push(r);
    }
  }
  if (ranks.length === 0) {
    index.hidden = null;
    return;
  }
  const order = index.u32('names.order');
  const positions: number[] = [];
  for (let k = 0; k < order.length; k++) if ((bits[order[k] >>> 3] & (1 << (order[k] & 7))) !== 0) positions.push(k);
  index.hidden = new HiddenDocs(bits, Uint32Array.from(ranks), termHolders(index, ranks), Uint32Array.from(positions));
}

/** Per term, the hidden documents holding it in their name or artists. */
function termHolders(index: SearchIndex, ranks: readonly number[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  const sections = [
    [index.u32('docname.offsets'), index.u32('docname.targets')],
    [index.u32('docartist.offsets'), index.u32('docartist.targets')],
  ] as const;
  const seen = new Set<number>();
  for (const r of ranks) {
    seen.clear();
    for (const [offsets, terms] of sections) for (let k = offsets[r]; k < offsets[r + 1]; k++) seen.add(terms[k]);
    for (const t of seen) {
      const list = out.get(t);
      if (list) list.push(r);
      else out.set(t, [r]);
    }
  }
  return out;
}
