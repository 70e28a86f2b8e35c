import type { HiddenDocs } from '../index-format/search/hidden-docs.js';
import type { SearchIndex, TermRange } from '../index-format/search/search-index.js';
import { RankMerge } from './rank-merge.js';

/** The terms one query word accepts: one or more term id ranges. */
export interface QueryWord {
  readonly ranges: readonly TermRange[];
}

/** What a scan counts and keeps: see Ranking in search-engine.ts. */
export interface Collector {
  /** Whether the total is at its cap (nothing more need be counted). */
  readonly full: boolean;
  /** Whether the page is complete (no more hits need be kept). */
  readonly pageFull: boolean;
  add(rank: number, tier: number): void;
}

/**
 * The documents holding every word (in the name or the artists), in popularity order: the
 * candidates of the rarest word (its postings, or the union of a range's), at most `scan` of
 * them, each checked against the other words, most selective first: a bit test where the word
 * has a bitmap (SearchIndex.bitmap), or one per term where it is a prefix of a few terms that all
 * have one (ANY_OF_BITMAPS), else a galloping seek in its postings. `skip` says which
 * candidates an earlier tier already counted. Stops when the collector is full, or, when
 * `saturated` (the total is known to reach its cap), as soon as the page is. `makeBitmaps`
 * false: only the bitmaps made already are used (one-time work, SearchIndex.bitmap).
 */
export function scanAllWords(
  index: SearchIndex,
  words: readonly QueryWord[],
  tier: number,
  scan: number,
  skip: (rank: number) => boolean,
  out: Collector,
  saturated: boolean,
  makeBitmaps = true,
  /** The word whose postings are the candidates, when the caller chose it (segmented-search.ts: the rarest over every segment). */
  driverAt?: number,
): void {
  const offsets = index.u32('postings.offsets');
  const postings = index.u32('postings');
  const sized = words.map((w) => ({ word: w, postings: w.ranges.reduce((n, r) => n + offsets[r.to] - offsets[r.from], 0) }));
  if (driverAt !== undefined) sized.unshift(...sized.splice(driverAt, 1));
  else sized.sort((a, b) => a.postings - b.postings);
  const [driver, ...others] = sized;
  if (driver.postings === 0) return;

  const bitmaps: Uint32Array[] = [];
  const anyOf: Uint32Array[][] = [];
  const cursors: RankMerge[] = [];
  for (const { word } of others) {
    const maps = termBitmaps(index, word, makeBitmaps);
    if (maps?.length === 1) bitmaps.push(maps[0]);
    else if (maps) anyOf.push(maps);
    else cursors.push(new RankMerge(offsets, postings, word.ranges));
  }
  // Candidates come in ascending rank, so each cursor only moves forward.
  const accept = (r: number): boolean => {
    const word = r >>> 5;
    const bit = 1 << (r & 31);
    for (let b = 0; b < bitmaps.length; b++) if ((bitmaps[b][word] & bit) === 0) return false;
    for (let a = 0; a < anyOf.length; a++) if (!anyHolds(anyOf[a], word, bit)) return false;
    for (let c = 0; c < cursors.length; c++) if (cursors[c].seek(r) !== r) return false;
    return !skip(r);
  };

  const ranges = driver.word.ranges;
  // Under a deletes set the hidden documents are not candidates: they do not count against `scan`
  // (a driver none of whose documents is hidden is scanned as without the set).
  const hidden = index.hidden && holdsHidden(index.hidden, ranges) ? index.hidden.bits : null;
  if (ranges.length === 1 && ranges[0].to - ranges[0].from === 1) {
    // One term: its postings are already in popularity order.
    const [from, to] = [offsets[ranges[0].from], offsets[ranges[0].to]];
    if (bitmaps.length > 0 && anyOf.length === 0 && cursors.length === 0)
      return scanBitmaps(postings, from, to, scan, hidden, bitmaps, tier, skip, out, saturated);
    for (let k = from, seen = 0; k < to && seen < scan; k++) {
      const r = postings[k];
      if (hidden !== null && (hidden[r >>> 3] & (1 << (r & 7))) !== 0) continue;
      seen++;
      if (accept(r)) {
        out.add(r, tier);
        if (out.full || (saturated && out.pageFull)) return;
      }
    }
    return;
  }
  const merge = new RankMerge(offsets, postings, ranges);
  for (let seen = 0; seen < scan; ) {
    const r = merge.next();
    if (r < 0) return;
    if (hidden && (hidden[r >>> 3] & (1 << (r & 7))) !== 0) continue;
    seen++;
    if (accept(r)) {
      out.add(r, tier);
      if (out.full || (saturated && out.pageFull)) return;
    }
  }
}

/** A driver of more terms than this is taken to hold hidden documents without looking (a lookup per term). */
const HIDDEN_LOOKUP_TERMS = 16;

/** Whether a document holding a term of `ranges` is hidden (true, unlooked, past HIDDEN_LOOKUP_TERMS terms). */
function holdsHidden(hidden: HiddenDocs, ranges: readonly TermRange[]): boolean {
  let terms = 0;
  for (const r of ranges) terms += r.to - r.from;
  if (terms > HIDDEN_LOOKUP_TERMS) return true;
  for (const r of ranges) for (let t = r.from; t < r.to; t++) if (hidden.holding(t) > 0) return true;
  return false;
}

/**
 * A word of several terms (a prefix) is tested with its terms' bitmaps, a rank passing when one
 * holds it, when it has at most this many terms and each has a bitmap; else with a merge of its
 * postings.
 */
export const ANY_OF_BITMAPS = 16;

/**
 * The bitmap of a prefix's term range when it has one (SearchIndex.rangeBitmap), else the bitmaps
 * of every term of `word` (SearchIndex.bitmap); null when one has none or there are more than
 * ANY_OF_BITMAPS.
 */
function termBitmaps(index: SearchIndex, word: QueryWord, make: boolean): Uint32Array[] | null {
  if (word.ranges.length === 1 && word.ranges[0].to - word.ranges[0].from > 1) {
    const map = index.rangeBitmap(word.ranges[0].from, word.ranges[0].to, make);
    if (map) return [map];
  }
  let terms = 0;
  for (const r of word.ranges) terms += r.to - r.from;
  if (terms > ANY_OF_BITMAPS) return null;
  const maps: Uint32Array[] = [];
  for (const r of word.ranges) {
    for (let id = r.from; id < r.to; id++) {
      const map = index.bitmap(id, make);
      if (!map) return null;
      maps.push(map);
    }
  }
  return maps;
}

function anyHolds(maps: readonly Uint32Array[], word: number, bit: number): boolean {
  for (let m = 0; m < maps.length; m++) if ((maps[m][word] & bit) !== 0) return true;
  return false;
}

/**
 * scanAllWords' loop for one term driving and every other word a bitmap: the common case, kept
 * tight. `scan` candidates at most, not counting the hidden (a deletes set's), which are skipped.
 */
function scanBitmaps(
  postings: Uint32Array,
  from: number,
  to: number,
  scan: number,
  hidden: Uint8Array | null,
  maps: readonly Uint32Array[],
  tier: number,
  skip: (rank: number) => boolean,
  out: Collector,
  saturated: boolean,
): void {
  const first = maps[0];
  const rest = maps.slice(1);
  let live = 0;
  next: for (let k = from; k < to; k++) {
    const r = postings[k];
    if (hidden !== null && (hidden[r >>> 3] & (1 << (r & 7))) !== 0) continue;
    if (++live > scan) return;
    const word = r >>> 5;
    const bit = 1 << (r & 31);
    if ((first[word] & bit) === 0) continue;
    for (let b = 0; b < rest.length; b++) if ((rest[b][word] & bit) === 0) continue next;
    if (skip(r)) continue;
    out.add(r, tier);
    if (out.full || (saturated && out.pageFull)) return;
  }
}
