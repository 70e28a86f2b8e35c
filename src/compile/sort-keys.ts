/**
 * Sort keys. Names compare case-insensitively after Unicode normalisation (NFKC, then lower
 * case), by code unit; every order breaks ties on local id.
 */
export function nameSortKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

export { compareLocalIds } from '../catalog/local-id-order.js';

/** A release date (YYYY, YYYY-MM or YYYY-MM-DD) as a number YYYYMMDD; missing parts are 00. */
export function releaseDateKey(date: string | undefined): number {
  if (!date) return Number.NaN;
  const [y, m = '00', d = '00'] = date.split('-');
  return Number(y) * 10000 + Number(m) * 100 + Number(d);
}
