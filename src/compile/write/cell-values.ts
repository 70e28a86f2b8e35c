/** A checked cell as a record stores it: its string or null. */
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
/** Its number or null. */
export const int = (v: unknown): number | null => (typeof v === 'number' ? v : null);
/** A derived text column's value, null for the empty string. */
export const orNull = (s: string): string | null => (s === '' ? null : s);
