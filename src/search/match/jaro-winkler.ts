/**
 * Jaro-Winkler similarity in [0, 1] over code points (not UTF-16 units), with the usual prefix
 * scale 0.1 and a common prefix of at most 4.
 */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const x = [...a];
  const y = [...b];
  if (x.length === 0 || y.length === 0) return 0;
  const window = Math.max(0, (Math.max(x.length, y.length) >> 1) - 1);
  const xMatched = new Uint8Array(x.length);
  const yMatched = new Uint8Array(y.length);
  let matches = 0;
  for (let i = 0; i < x.length; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(y.length - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (yMatched[j] || x[i] !== y[j]) continue;
      xMatched[i] = yMatched[j] = 1;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  for (let i = 0, j = 0; i < x.length; i++) {
    if (!xMatched[i]) continue;
    while (!yMatched[j]) j++;
    if (x[i] !== y[j]) transpositions++;
    j++;
  }
  const m = matches;
  const jaro = (m / x.length + m / y.length + (m - transpositions / 2) / m) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < x.length && prefix < y.length && x[prefix] === y[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}
