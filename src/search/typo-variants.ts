/**
 * Every string one edit away from `word` (a deletion, an insertion, a substitution, or two
 * neighbours swapped), with the inserted and substituted letters drawn from `alphabet` but only
 * from the Unicode blocks the word itself uses, so a Latin word is not tried with 5,000 CJK
 * characters. Works on code points, not UTF-16 units.
 */
export function typoVariants(word: string, alphabet: string, edits?: VariantEdits): Set<string> {
  const chars = [...word];
  const all = variantLetters(chars, alphabet);
  const open = (i: number) => edits?.open(i) ?? true;
  const at: (readonly string[] | null)[] = new Array(chars.length + 1).fill(null);
  const letters = (i: number) => (at[i] ??= edits ? edits.letters(i, all) : all);
  const out = new Set<string>();
  const n = chars.length;
  for (let i = 0; i < n; i++) if (open(i)) out.add(join(chars, i, i + 1, ''));
  for (let i = 0; i + 1 < n; i++) if (open(i)) out.add(join(chars, i, i + 2, chars[i + 1] + chars[i]));
  for (let i = 0; i < n; i++) if (open(i)) for (const c of letters(i)) if (c !== chars[i]) out.add(join(chars, i, i + 1, c));
  for (let i = 0; i <= n; i++) if (open(i)) for (const c of letters(i)) out.add(join(chars, i, i, c));
  out.delete(word);
  out.delete('');
  return out;
}

/**
 * Narrows typoVariants to the edits a caller knows can matter: `open(i)`, whether to edit at
 * position i at all, and `letters(i, all)`, which of the letters to insert or substitute there.
 */
export interface VariantEdits {
  open(position: number): boolean;
  letters(position: number, all: readonly string[]): readonly string[];
}

/** The letters typoVariants inserts and substitutes: those of `alphabet` in the word's Unicode blocks, and digits. */
function variantLetters(chars: readonly string[], alphabet: string): string[] {
  const blocks = new Set(chars.map(blockOf));
  return [...alphabet].filter((c) => blocks.has(blockOf(c)) || /\p{N}/u.test(c));
}

const blockOf = (c: string): number => c.codePointAt(0)! >> 7;

function join(chars: readonly string[], from: number, to: number, middle: string): string {
  let s = '';
  for (let i = 0; i < from; i++) s += chars[i];
  s += middle;
  for (let i = to; i < chars.length; i++) s += chars[i];
  return s;
}

/** Damerau (optimal string alignment) distance, stopping early above `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > max) return max + 1;
  let prev2 = new Array<number>(y.length + 1).fill(0);
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = new Array<number>(y.length + 1);
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[y.length];
}
