/**
 * Numbers as a person reads them, the same in the terminal (`omm inspect`, `omm compile`) and in
 * the explorer's pages: sizes in binary units, counts with thousands separators.
 */

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** 12 -> "12 B"; 1536 -> "1.50 KiB"; 123456789 -> "117.7 MiB": three significant figures from 1 KiB up. */
export function bytes(n: number): string {
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${n} B` : `${value.toFixed(value < 10 ? 2 : 1)} ${BYTE_UNITS[unit]}`;
}

/** 1234567 -> "1,234,567". */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}
