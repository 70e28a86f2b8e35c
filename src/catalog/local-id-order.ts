const DECIMAL = /^(0|[1-9][0-9]{0,14})$/;

/**
 * Local ids compare numerically when both are decimal integers (numbers first), else by code
 * unit: every order and every multi-valued key breaks ties this way (docs/format.md).
 */
export function compareLocalIds(a: string, b: string): number {
  const an = DECIMAL.test(a);
  const bn = DECIMAL.test(b);
  if (an && bn) return Number(a) - Number(b);
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
