import type { SegmentSearch } from '../../catalog/segment-parts.js';
import { NAME_GROUP_MIN } from '../../index-format/search/name-groups.js';
import type { TermRange } from '../../index-format/search/search-index.js';
import { CANDIDATES_PER_SEARCH, creditBitmaps, EXACT_TITLE_SCAN, inEveryBitmap, type TitleCandidates } from './title-candidates.js';

/* The matcher's first candidates over the segments of a segmented snapshot (segmented-corpus.ts). */

/** A document of one part that passed: its merged popularity rank, and how many of its part's documents named so, in service, come before it. */
interface Passing {
  readonly global: number;
  readonly part: number;
  readonly rank: number;
  readonly before: number;
}

/** One part's documents named exactly so: its range of the name order, those in service, and the first that pass. */
interface PartTitle {
  readonly range: TermRange;
  readonly live: number;
  readonly passing: Passing[];
}

/**
 * exactTitleCandidates (title-candidates.ts) over the segments, with the same answer as one index
 * of the whole catalog: among the first EXACT_TITLE_SCAN documents in service named exactly
 * `name`, in merged popularity order, the first CANDIDATES_PER_SEARCH whose artists hold every
 * term of the credit (`ids`: per part its term ids, null where a word is no term there; null
 * overall without a credit: every document passes). Each part gives its own first passing
 * documents: from the compile's name groups where its index has them (the base: a large group is
 * not read document by document), else by a scan of its range; they are merged by their
 * merged popularity rank, as far as the first EXACT_TITLE_SCAN in service over all parts reach.
 */
export function segmentedTitleCandidates(parts: readonly SegmentSearch[], name: string, ids: (Uint32Array | null)[] | null): TitleCandidates {
  const titles = parts.map((part, p) => partTitle(part, p, name, ids === null ? null : ids[p], ids !== null));
  const live = titles.reduce((n, t) => n + t.live, 0);
  const candidates = new Map<number, number>();
  const all = titles.flatMap((t) => t.passing).sort((a, b) => a.global - b.global);
  for (const f of all) {
    if (candidates.size >= CANDIDATES_PER_SEARCH || !withinScan(parts, titles, f, live)) break;
    candidates.set(parts[f.part].ordinal(f.rank), f.global);
  }
  return { candidates, verified: ids !== null, partial: live > EXACT_TITLE_SCAN || candidates.size >= CANDIDATES_PER_SEARCH };
}

/**
 * One part's documents named `name` in service, and the first CANDIDATES_PER_SEARCH of them whose
 * artists hold `partIds` among its first EXACT_TITLE_SCAN in service (the part's share of the
 * merged scan can be no more). `credited` without `partIds`: a credit word is no term here, so none pass.
 */
function partTitle(part: SegmentSearch, p: number, name: string, partIds: Uint32Array | null, credited: boolean): PartTitle {
  const { index } = part;
  const range = index.exactNameRange(name);
  const hidden = index.hidden;
  const size = range.to - range.from;
  const live = size - (hidden?.inNameRange(range.from, range.to) ?? 0);
  const passing: Passing[] = [];
  if (credited && partIds === null) return { range, live, passing };
  const order = index.u32('names.order');
  const hiddenInWindow = hidden ? hidden.inNameRange(range.from, range.from + Math.min(size, EXACT_TITLE_SCAN)) : 0;
  const listed =
    partIds === null || size < NAME_GROUP_MIN
      ? null
      : (index.firstPages?.nameGroups()?.holdingAll(range.from, partIds, CANDIDATES_PER_SEARCH + hiddenInWindow) ?? null);
  const add = (position: number, before: number) => passing.push({ global: part.global(order[position]), part: p, rank: order[position], before });
  let from = range.from;
  let scanned = 0;
  if (listed !== null) {
    for (const q of listed) {
      const rank = order[range.from + q];
      if (!hidden?.has(rank)) add(range.from + q, q - (hidden?.inNameRange(range.from, range.from + q) ?? 0));
    }
    // Past the listed window, as many documents in service as the window hid (a deletes set).
    if (hiddenInWindow === 0 || size <= EXACT_TITLE_SCAN) return { range, live, passing };
    from = range.from + EXACT_TITLE_SCAN;
    scanned = EXACT_TITLE_SCAN - hiddenInWindow;
  }
  // A bit test first where a credit word has a bitmap (held in the name or the artists), then the artists' own terms.
  const maps = creditBitmaps(index, partIds);
  let found = 0;
  for (let k = from; k < range.to && scanned < EXACT_TITLE_SCAN && found < CANDIDATES_PER_SEARCH; k++) {
    const rank = order[k];
    if (hidden?.has(rank)) continue;
    if (partIds === null || (inEveryBitmap(maps, rank) && index.artistsHold(rank, partIds))) {
      add(k, scanned);
      found++;
    }
    scanned++;
  }
  return { range, live, passing };
}

/**
 * Whether a passing document is among the first EXACT_TITLE_SCAN in service over all parts: its
 * own part's before it, and the other parts' whose merged rank is smaller (counted only when
 * their documents in service could put it past the scan).
 */
function withinScan(parts: readonly SegmentSearch[], titles: readonly PartTitle[], f: Passing, live: number): boolean {
  if (live <= EXACT_TITLE_SCAN) return true;
  let before = f.before;
  if (before + live - titles[f.part].live < EXACT_TITLE_SCAN) return true;
  for (let q = 0; q < parts.length && before < EXACT_TITLE_SCAN; q++) if (q !== f.part) before += liveBefore(parts[q], titles[q].range, f.global);
  return before < EXACT_TITLE_SCAN;
}

/** Documents of a part's range in service whose merged rank is below `global` (a binary search: the range is in popularity order). */
function liveBefore(part: SegmentSearch, range: TermRange, global: number): number {
  const order = part.index.u32('names.order');
  let lo = range.from;
  let hi = range.to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (part.global(order[mid]) < global) lo = mid + 1;
    else hi = mid;
  }
  return lo - range.from - (part.index.hidden?.inNameRange(range.from, lo) ?? 0);
}
