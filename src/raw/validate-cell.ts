import { cleanUpc, normalizeIsrc } from './codes.js';
import { EXPLORE_TYPES, LIST_SEPARATOR, type ColumnKind } from './schema.js';

export type CellValue = string | number | boolean | string[];

/** Why a cell is invalid. Valid cells return their value itself (no wrapper per cell). */
export class CellProblem {
  constructor(readonly message: string) {}
}
export type CellResult = CellValue | CellProblem;

const ID = /^[A-Za-z0-9._~-]{1,64}$/;
const INT = /^[0-9]{1,16}$/;
const RFC3339 = /^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})$/;
const OMM_ID = /^[0-9a-z]{16}$/;
const MAX_TEXT = 4096;
const BOOLS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false, yes: true, no: false };

const ok = (value: CellValue): CellResult => value;
const bad = (message: string): CellResult => new CellProblem(message);
const HTTP_URL = /^https?:\/\/[^\s/?#@]+(?:[/?#][^\s]*)?$/i;
const show = (raw: string): string => JSON.stringify(raw.length > 60 ? `${raw.slice(0, 57)}...` : raw);

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number of `count` ASCII digits at `at`, or -1. */
function digitsAt(text: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Whether `text` has the shape YYYY, YYYY-MM or YYYY-MM-DD (the DATE pattern), by character codes. */
function isDateShape(text: string): boolean {
  const n = text.length;
  if (n !== 4 && n !== 7 && n !== 10) return false;
  if (digitsAt(text, 0, 4) < 0) return false;
  if (n >= 7 && (text.charCodeAt(4) !== 45 || digitsAt(text, 5, 2) < 0)) return false;
  return n < 10 || (text.charCodeAt(7) === 45 && digitsAt(text, 8, 2) >= 0);
}

/** YYYY, YYYY-MM or YYYY-MM-DD naming a real day of the proleptic Gregorian calendar from year 1000 (no allocation: it runs per cell). */
export function isValidCalendarDate(text: string): boolean {
  if (!isDateShape(text)) return false;
  const year = digitsAt(text, 0, 4);
  if (year < 1000) return false;
  if (text.length === 4) return true;
  const month = digitsAt(text, 5, 2);
  if (month < 1 || month > 12) return false;
  if (text.length === 7) return true;
  const day = digitsAt(text, 8, 2);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day >= 1 && day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month]);
}

/**
 * Checks one non-empty cell against its kind and returns the value as stored:
 * ints as numbers, bools as booleans, lists as arrays, ISRCs normalised, dates as given.
 * `datetime` values become epoch milliseconds. An invalid cell returns a CellProblem.
 */
export function validateCell(kind: ColumnKind, raw: string): CellResult {
  switch (kind) {
    case 'id':
    case 'ref':
      return ID.test(raw) ? ok(raw) : bad(`${show(raw)} is not an id (1-64 of A-Z a-z 0-9 . _ ~ -)`);
    case 'text': {
      const text = raw.trim();
      if (text.length === 0) return bad('is blank');
      if (text.length > MAX_TEXT) return bad(`is longer than ${MAX_TEXT} characters`);
      if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(text)) return bad('holds control characters');
      return ok(text);
    }
    case 'longtext':
      return ok(raw);
    case 'int': {
      const text = raw.trim();
      if (!INT.test(text)) return bad(`${show(raw)} is not a non-negative integer`);
      const n = Number(text);
      return Number.isSafeInteger(n) ? ok(n) : bad(`${show(raw)} is too large`);
    }
    case 'bool': {
      const value = BOOLS[raw.trim().toLowerCase()];
      return value === undefined ? bad(`${show(raw)} is not true/false/1/0/yes/no`) : ok(value);
    }
    case 'date': {
      const text = raw.trim();
      if (!isDateShape(text)) return bad(`${show(raw)} is not YYYY, YYYY-MM or YYYY-MM-DD`);
      return isValidCalendarDate(text) ? ok(text) : bad(`${show(raw)} is not a real calendar date`);
    }
    case 'datetime': {
      const text = raw.trim();
      const dateOnly = text.length === 10 && isDateShape(text);
      if (!dateOnly && !RFC3339.test(text)) return bad(`${show(raw)} is not YYYY-MM-DD or an RFC 3339 timestamp`);
      if (!isValidCalendarDate(text.slice(0, 10))) return bad(`${show(raw)} is not a real calendar date`);
      const ms = Date.parse(dateOnly ? `${text}T00:00:00Z` : text);
      return Number.isFinite(ms) ? ok(ms) : bad(`${show(raw)} is not a valid time`);
    }
    case 'isrc': {
      const code = normalizeIsrc(raw);
      return code ? ok(code) : bad(`${show(raw)} is not an ISRC (CC-XXX-YY-NNNNN)`);
    }
    case 'upc': {
      const digits = cleanUpc(raw);
      if (digits) return ok(digits);
      return /^[0-9\s-]+$/.test(raw) && /^[0-9]{12,13}$/.test(raw.replace(/[\s-]/g, ''))
        ? bad(`${show(raw)} has a wrong GS1 check digit`)
        : bad(`${show(raw)} is not a 12-digit UPC-A or 13-digit EAN-13`);
    }
    case 'url': {
      const text = raw.trim();
      // The common case by pattern; anything unusual (IPv6, credentials) by the URL parser.
      if (HTTP_URL.test(text) && text.length <= 2048) return ok(text);
      try {
        const url = new URL(text);
        if (url.protocol === 'http:' || url.protocol === 'https:') return ok(text);
      } catch {
        // fall through
      }
      return bad(`${show(raw)} is not an absolute http(s) URL`);
    }
    case 'list': {
      const values = [
        ...new Set(
          raw
            .split(LIST_SEPARATOR)
            .map((v) => v.trim())
            .filter((v) => v.length > 0),
        ),
      ];
      if (values.some((v) => v.length > 256)) return bad('has a value longer than 256 characters');
      return ok(values);
    }
    case 'lang': {
      try {
        const [tag] = Intl.getCanonicalLocales(raw.trim());
        if (tag) return ok(tag);
      } catch {
        // fall through
      }
      return bad(`${show(raw)} is not a BCP 47 language tag`);
    }
    case 'omm_id':
      return OMM_ID.test(raw.trim()) ? ok(raw.trim()) : bad(`${show(raw)} is not 16 characters of 0-9 a-z`);
    case 'type':
      return (EXPLORE_TYPES as readonly string[]).includes(raw.trim()) ? ok(raw.trim()) : bad(`${show(raw)} is not one of ${EXPLORE_TYPES.join(', ')}`);
  }
}
