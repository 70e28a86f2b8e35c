/**
 * Whether two words are at most one edit apart (a letter changed, added or dropped, or two
 * neighbours swapped), over code points, in one pass: the matcher asks this for every pair of
 * query and candidate words, where a full edit-distance table would cost a row per letter.
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const x = codePoints(a);
  const y = codePoints(b);
  if (Math.abs(x.length - y.length) > 1) return false;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  if (short.length === long.length) {
    // One change at i, or i and i+1 swapped.
    if (sameFrom(short, i + 1, long, i + 1)) return true;
    return i + 1 < short.length && short[i] === long[i + 1] && short[i + 1] === long[i] && sameFrom(short, i + 2, long, i + 2);
  }
  // One letter of the longer word dropped at i.
  return sameFrom(short, i, long, i + 1);
}

function sameFrom(a: readonly string[] | string, i: number, b: readonly string[] | string, j: number): boolean {
  if (a.length - i !== b.length - j) return false;
  for (; i < a.length; i++, j++) if (a[i] !== b[j]) return false;
  return true;
}

/** The string itself when it has no surrogate pairs (index = code point), else its code points. */
function codePoints(s: string): string | string[] {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return [...s];
  }
  return s;
}
