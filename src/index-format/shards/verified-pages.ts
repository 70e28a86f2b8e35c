/**
 * Which pages of each shard file were verified, by file identity, for as long as a shard of it is
 * open: a snapshot sharing files with the one in service (omm takedown's hard links) starts from
 * what was checked, instead of checking every page of the catalog again. (`verifyAll` checks
 * every page whatever this says.)
 */
const verifiedByFile = new Map<string, WeakRef<Uint8Array>>();

export function verifiedPagesOf(identity: string | undefined, pageCount: number): { pages: Uint8Array; inherited: boolean } {
  if (identity === undefined) return { pages: new Uint8Array(pageCount), inherited: false };
  const known = verifiedByFile.get(identity)?.deref();
  if (known && known.length === pageCount) return { pages: known, inherited: true };
  const pages = new Uint8Array(pageCount);
  if (verifiedByFile.size >= 4096) for (const [key, ref] of verifiedByFile) if (!ref.deref()) verifiedByFile.delete(key);
  verifiedByFile.set(identity, new WeakRef(pages));
  return { pages, inherited: false };
}
