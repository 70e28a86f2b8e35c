/**
 * Typed access to the fields of a parsed MusicBrainz JSON value. A field that matters and has the
 * wrong type (a `length` that is a string, `media` that is not an array) is an E_IMPORT_VALUE
 * naming the file, the line and the field path (`media[0].tracks[2].length`); a field that is
 * absent or null is simply absent. Text is cleaned into a valid raw `text` cell.
 */
import { ImportError } from '../import-error.js';
import type { ImportReport } from '../stage/staged.js';
import { isValidCalendarDate } from '../../raw/validate-cell.js';

/** Where the value being read came from: for errors (file, line) and for the report (where). */
export interface ReadContext {
  /** The file as ImportErrorPlace names it: `dir/release.jsonl`, `release.tar.xz:mbdump/release`. */
  readonly file: string;
  /** 1-based line of a JSON-lines unit; absent for a single document. */
  readonly line?: number;
  /** The unit's `where`, used in report messages. */
  readonly where: string;
  readonly report: ImportReport;
  /** Prefixed to every field path: `releases[3].` inside a WS/2 browse response, else ''. */
  readonly prefix: string;
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The E_IMPORT_VALUE for `path` (relative to the entity) at the context's place. */
export function valueError(ctx: ReadContext, path: string, detail: string): ImportError {
  return new ImportError('E_IMPORT_VALUE', { file: ctx.file, line: ctx.line, path: ctx.prefix + path }, detail);
}

const describe = (value: unknown): string =>
  Array.isArray(value)
    ? 'an array'
    : value === null
      ? 'null'
      : typeof value === 'object'
        ? 'an object'
        : `${typeof value} ${JSON.stringify(value).slice(0, 40)}`;

/** Joins a field path: `at('media[0]', 'tracks')` = `media[0].tracks`. */
export const at = (base: string, key: string | number): string => (typeof key === 'number' ? `${base}[${key}]` : base === '' ? key : `${base}.${key}`);

/** A string field, or undefined when absent or null. */
export function optString(ctx: ReadContext, obj: Json, key: string, base: string): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw valueError(ctx, at(base, key), `expected a string, found ${describe(value)}`);
  return value;
}

/** An array field, or [] when absent or null. */
export function optArray(ctx: ReadContext, obj: Json, key: string, base: string): readonly unknown[] {
  const value = obj[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw valueError(ctx, at(base, key), `expected an array, found ${describe(value)}`);
  return value;
}

/** An object field, or undefined when absent or null. */
export function optObject(ctx: ReadContext, obj: Json, key: string, base: string): Json | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw valueError(ctx, at(base, key), `expected an object, found ${describe(value)}`);
  return value;
}

/** An array element that must be an object. */
export function objectAt(ctx: ReadContext, value: unknown, path: string): Json {
  if (!isObject(value)) throw valueError(ctx, path, `expected an object, found ${describe(value)}`);
  return value;
}

/** A non-negative integer field (milliseconds, positions), or undefined when absent or null. */
export function optCount(ctx: ReadContext, obj: Json, key: string, base: string): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw valueError(ctx, at(base, key), `expected a non-negative integer, found ${describe(value)}`);
  }
  return value;
}

/** A 1-based position field (medium and track `position`), or undefined when absent or null. */
export function optPosition(ctx: ReadContext, obj: Json, key: string, base: string): number | undefined {
  const value = optCount(ctx, obj, key, base);
  if (value === 0) throw valueError(ctx, at(base, key), 'expected a position from 1, found 0');
  return value;
}

const MBID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * An MBID field, lower-cased (36 characters of hex and `-`: a valid raw id as it is). Absent or
 * null gives undefined; a string that is not an MBID gives null, for the caller to report.
 */
export function optMbid(ctx: ReadContext, obj: Json, key: string, base: string): string | null | undefined {
  const value = optString(ctx, obj, key, base);
  if (value === undefined) return undefined;
  const id = value.trim().toLowerCase();
  if (id === '') return undefined;
  return MBID.test(id) ? id : null;
}

const MAX_TEXT = 4096; // docs/raw-format.md: a text cell holds at most 4096 characters
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

/**
 * `raw` as a valid raw text cell: trimmed, without control characters, at most 4096 characters
 * (cut at a character boundary, with a warning). Undefined when nothing is left.
 */
export function cleanText(ctx: ReadContext, raw: string | undefined, path: string): string | undefined {
  if (raw === undefined) return undefined;
  let text = raw.replace(CONTROL, '').trim();
  if (text.length !== raw.trim().length) ctx.report.warn(ctx.where, `${ctx.prefix}${path}: control characters removed`);
  if (text.length > MAX_TEXT) {
    let end = MAX_TEXT;
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end--; // do not split a surrogate pair
    text = text.slice(0, end).trimEnd();
    ctx.report.warn(ctx.where, `${ctx.prefix}${path}: cut to ${MAX_TEXT} characters`);
  }
  return text === '' ? undefined : text;
}

/** A MusicBrainz date (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`) when it is a real one, else undefined with a warning (none for ''). */
export function cleanDate(ctx: ReadContext, raw: string | undefined, path: string): string | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === '') return undefined;
  if (isValidCalendarDate(text)) return text;
  ctx.report.warn(ctx.where, `${ctx.prefix}${path}: ${JSON.stringify(text)} is not a real date (YYYY, YYYY-MM or YYYY-MM-DD); left out`);
  return undefined;
}
