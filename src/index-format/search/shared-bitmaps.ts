import { memoryLimitBytes } from '../memory-limit.js';

/** A term gets a bitmap when at least one document in this many holds it. */
export const BITMAP_DENSITY = 256;
/**
 * Bytes of bitmaps one index keeps at most (the first dense terms and prefixes searches test get
 * them): a 64th of the memory the process may use (memoryLimitBytes: the cgroup's limit or the
 * machine's), at least 32 MiB and at most 256 MiB. A 10M-song bitmap is 1.25 MB: the former
 * fixed 64 MiB held about 50, fewer than the prefixes typed searches send; a 1 GiB node keeps
 * 32 MiB of them and the rest of its memory for the page cache.
 */
export const BITMAP_BUDGET = Math.min(256 * 2 ** 20, Math.max(32 * 2 ** 20, Math.floor(memoryLimitBytes() / 64)));

/** The bitmaps of common terms one search shard file has (TermBitmaps): null for a term refused one. */
interface BitmapSet {
  readonly maps: Map<number, Uint32Array | null>;
  bytes: number;
}

/**
 * The bitmaps of each search shard file, by file identity (HeldFile.identity), for as long as an
 * index over it is open: a snapshot sharing the file with the one in service (omm takedown's
 * hard links) uses the bitmaps built already. A bitmap is made from the file's postings alone,
 * so it is the same for every snapshot sharing the file, whatever its deletes set.
 */
const byFile = new Map<string, WeakRef<BitmapSet>>();

function bitmapSetOf(identity: string | undefined): BitmapSet {
  const known = identity === undefined ? undefined : byFile.get(identity)?.deref();
  if (known) return known;
  const set: BitmapSet = { maps: new Map(), bytes: 0 };
  if (identity !== undefined) {
    if (byFile.size >= 1024) for (const [key, ref] of byFile) if (!ref.deref()) byFile.delete(key);
    byFile.set(identity, new WeakRef(set));
  }
  return set;
}

/**
 * Bitmaps of the documents holding a search index's common terms (bit r of word r >> 5): a bit
 * test is several times cheaper than a seek in the postings. A term held by one document in
 * BITMAP_DENSITY or more gets one when a search first tests it, while the budget lasts, so the
 * budget goes to the terms the searches sent use. One-time work (ranking again a stored page
 * under a deletes set) uses the bitmaps there are without making any (`of(id, false)`): it
 * would otherwise spend the budget on other terms than the searches a server then serves.
 */
export class TermBitmaps {
  private readonly set: BitmapSet;

  constructor(
    identity: string | undefined,
    private readonly documents: number,
    private readonly terms: number,
    /** The index's `postings.offsets` and `postings` sections. */
    private readonly section: (name: 'postings.offsets' | 'postings') => Uint32Array,
    private readonly budget = BITMAP_BUDGET,
    /** Reads a term's postings ahead before a bitmap is made of them all. */
    private readonly readAhead: (id: number) => void = () => undefined,
  ) {
    this.set = bitmapSetOf(identity);
  }

  /** The bitmap of term `id`, or null when it has none (and, with `make`, cannot have one). */
  of(id: number, make = true): Uint32Array | null {
    return this.bitmapOf(id, id, id + 1, make);
  }

  /**
   * The bitmap of the documents holding any term of [from, to) (a typed prefix starting several
   * terms: one bit test instead of a merge of their postings), or null when it has none (and,
   * with `make`, cannot have one): made as a term's is, when they are held by one document in
   * BITMAP_DENSITY or more, from the same budget. Kept under a negative key, apart from the terms.
   */
  ofRange(from: number, to: number, make = true): Uint32Array | null {
    return to - from === 1 ? this.of(from, make) : this.bitmapOf(-(from * this.terms + to) - 1, from, to, make);
  }

  /** The bitmap kept under `key` of the documents holding a term of [from, to), made on first ask when dense and the budget allows. */
  private bitmapOf(key: number, from: number, to: number, make: boolean): Uint32Array | null {
    let map = this.set.maps.get(key);
    if (map !== undefined || !make) return map ?? null;
    const offsets = this.section('postings.offsets');
    const bytes = ((this.documents + 31) >>> 5) * 4;
    map = null;
    if (to > from && this.dense(offsets[to] - offsets[from]) && this.set.bytes + bytes <= this.budget) {
      // The reads first: one that throws (a cold read, cold-reads.ts, runs the request again)
      // leaves the budget as it was.
      for (let id = from; id < to; id++) this.readAhead(id);
      const postings = this.section('postings');
      map = new Uint32Array((this.documents + 31) >>> 5);
      for (let k = offsets[from]; k < offsets[to]; k++) map[postings[k] >>> 5] |= 1 << (postings[k] & 31);
      this.set.bytes += bytes;
    }
    this.set.maps.set(key, map);
    return map;
  }

  /** How many bitmaps of terms are kept so far (ofRange's count apart: rangesKept). */
  get kept(): number {
    let n = 0;
    for (const [key, map] of this.set.maps) if (key >= 0 && map !== null) n++;
    return n;
  }

  /** How many bitmaps of prefixes' term ranges are kept so far. */
  get rangesKept(): number {
    let n = 0;
    for (const [key, map] of this.set.maps) if (key < 0 && map !== null) n++;
    return n;
  }

  /** The terms held by one document in BITMAP_DENSITY or more, most documents first (ties by id). */
  candidates(): number[] {
    const offsets = this.section('postings.offsets');
    const ids: number[] = [];
    for (let id = 0; id < this.terms; id++) if (this.dense(offsets[id + 1] - offsets[id])) ids.push(id);
    return ids.sort((a, b) => offsets[b + 1] - offsets[b] - (offsets[a + 1] - offsets[a]) || a - b);
  }

  private dense(count: number): boolean {
    return this.documents > 0 && count * BITMAP_DENSITY >= this.documents;
  }
}
