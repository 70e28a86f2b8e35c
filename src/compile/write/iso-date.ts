const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);
/** 9999-12-31T23:59:59.999Z: past it toISOString writes six-digit years. */
const LAST_FOUR_DIGIT_YEAR_MS = 253_402_300_799_999;
const DAY_MS = 86_400_000;

/**
 * `new Date(ms).toISOString()` for times from 1970 to year 9999 without a Date per call (the
 * writers format one per record); others go through Date. Null for NaN (no time).
 * Days to civil date: Howard Hinnant's days_from_civil inverse.
 */
export function isoDate(ms: number): string | null {
  if (Number.isNaN(ms)) return null;
  if (!(ms >= 0 && ms <= LAST_FOUR_DIGIT_YEAR_MS) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${year}-${pad2(month)}-${pad2(day)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${pad3(millis)}Z`;
}
