/** The bitmaps of common terms a search index keeps (SearchIndex.bitmap), and their bytes. */
export interface BitmapSet {
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

export function bitmapSetOf(identity: string | undefined): BitmapSet {
  const known = identity === undefined ? undefined : byFile.get(identity)?.deref();
  if (known) return known;
  const set: BitmapSet = { maps: new Map(), bytes: 0 };
  if (identity !== undefined) {
    if (byFile.size >= 1024) for (const [key, ref] of byFile) if (!ref.deref()) byFile.delete(key);
    byFile.set(identity, new WeakRef(set));
  }
  return set;
}
