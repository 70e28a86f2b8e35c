import { createHash } from 'node:crypto';

const CREATED = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A sender's creation time (xs:dateTime, as DDEX's MessageCreatedDateTime: any number of
 * fraction digits, an offset or none) as UTC `YYYY-MM-DDTHH:MM:SS.fffffffZ`, which sorts by time
 * as text. A time without an offset is read as UTC. Returns null when `text` is not such a time.
 */
export function normalisedCreated(text: string): string | null {
  const m = CREATED.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone = 'Z'] = m;
  const fields = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s)];
  if (fields[1] < 1 || fields[1] > 12 || fields[2] < 1 || fields[2] > 31 || fields[3] > 24 || fields[4] > 59 || fields[5] > 60) return null;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.replace(':', '');
    offsetMinutes = (digits[0] === '-' ? -1 : 1) * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
  }
  const ms = Date.UTC(fields[0], fields[1] - 1, fields[2], fields[3], fields[4] - offsetMinutes, Math.min(fields[5], 59));
  if (Number.isNaN(ms)) return null;
  const utc = new Date(ms).toISOString().slice(0, 19);
  return `${utc}.${fraction.slice(0, 7).padEnd(7, '0')}Z`;
}

/** Hex SHA-256 of a unit's bytes. */
export function unitDigest(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
