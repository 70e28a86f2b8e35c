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
const DATE = /^([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2}))?)?$/;
const RFC3339 = /^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})$/;
const OMM_ID = /^[0-9a-z]{16}$/;
const MAX_TEXT = 4096;
const BOOLS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false, yes: true, no: false };

const ok = (value: CellValue): CellResult => value;
const bad = (message: string): CellResult => new CellProblem(message);
const HTTP_URL = /^https?:\/\/[^\s/?#@]+(?:[/?#][^\s]*)?$/i;
const show = (raw: string): string => JSON.stringify(raw.length > 60 ? `${raw.slice(0, 57)}...` : raw);

export function isValidCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const year = Number(m[1]);
  if (year < 1000) return false;
  if (m[2] === undefined) return true;
  const month = Number(m[2]);
  if (month < 1 || month > 12) return false;
  if (m[3] === undefined) return true;
  const day = Number(m[3]);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day >= 1 && day <= days;
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
      // eslint-disable-next-line no-control-regex
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
      if (!DATE.test(text)) return bad(`${show(raw)} is not YYYY, YYYY-MM or YYYY-MM-DD`);
      return isValidCalendarDate(text) ? ok(text) : bad(`${show(raw)} is not a real calendar date`);
    }
    case 'datetime': {
      const text = raw.trim();
      const dateOnly = DATE.test(text) && text.length === 10;
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
      const values = [...new Set(raw.split(LIST_SEPARATOR).map((v) => v.trim()).filter((v) => v.length > 0))];
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
      return (EXPLORE_TYPES as readonly string[]).includes(raw.trim())
        ? ok(raw.trim())
        : bad(`${show(raw)} is not one of ${EXPLORE_TYPES.join(', ')}`);
  }
}
