/**
 * Sort keys. Names compare case-insensitively after Unicode normalisation (NFKC, then lower
 * case), by code unit; every order breaks ties on local id.
 */
export function nameSortKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

const DECIMAL = /^(0|[1-9][0-9]{0,14})$/;

/** Local ids compare numerically when both are decimal integers (numbers first), else by code unit. */
export function compareLocalIds(a: string, b: string): number {
  const an = DECIMAL.test(a);
  const bn = DECIMAL.test(b);
  if (an && bn) return Number(a) - Number(b);
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A release date (YYYY, YYYY-MM or YYYY-MM-DD) as a number YYYYMMDD; missing parts are 00. */
export function releaseDateKey(date: string | undefined): number {
  if (!date) return Number.NaN;
  const [y, m = '00', d = '00'] = date.split('-');
  return Number(y) * 10000 + Number(m) * 100 + Number(d);
}
