/**
 * Whether an If-None-Match header names one of `tags` (or is `*`). The comparison is the weak
 * one RFC 9110 asks for on If-None-Match: a `W/` prefix does not matter.
 */
export function ifNoneMatchHits(header: string | undefined, tags: readonly string[]): boolean {
  if (!header) return false;
  for (const raw of header.split(',')) {
    const t = raw.trim();
    if (t === '*') return true;
    const tag = t.startsWith('W/') ? t.slice(2) : t;
    if (tags.includes(tag)) return true;
  }
  return false;
}
