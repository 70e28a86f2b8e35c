import { ImportError } from '../import-error.js';
import { isValidCalendarDate } from '../../raw/validate-cell.js';
import { normalisedCreated } from '../stage/source-unit.js';
import { child, childText, pathOf, textOf, type XNode } from './xnode.js';

/** An E_IMPORT_VALUE error at an element of the message in `file`. */
export function valueError(file: string, node: XNode, detail: string): ImportError {
  return new ImportError('E_IMPORT_VALUE', { file, line: node.line, column: node.column, path: pathOf(node) }, detail);
}

const DURATION = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/**
 * Milliseconds of an xs:duration as DDEX writes track lengths: `PT3M15S`, `PT0H8M7S`, `PT58S`,
 * `PT1M`, `PT4M23.583S`, `P1DT2H`. Years and months have no fixed length, so only zero ones are
 * taken. Null when the text is not such a duration.
 */
export function durationMs(text: string): number | null {
  const m = DURATION.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return null;
  const [, years, months, days, hours, minutes, seconds] = m;
  if ((years !== undefined && Number(years) !== 0) || (months !== undefined && Number(months) !== 0)) return null;
  const ms = ((Number(days ?? 0) * 24 + Number(hours ?? 0)) * 60 + Number(minutes ?? 0)) * 60_000 + Math.round(Number(seconds ?? 0) * 1000);
  return Number.isSafeInteger(ms) ? ms : null;
}

/** The Duration child read as milliseconds; an unreadable one is an E_IMPORT_VALUE error. */
export function readDuration(file: string, node: XNode | undefined): number | undefined {
  const text = textOf(node);
  if (!node || text === undefined) return undefined;
  const ms = durationMs(text);
  if (ms === null) throw valueError(file, node, `"${text}" is not a duration (xs:duration such as PT3M15S)`);
  return ms;
}

const DATE = /^(\d{4}(?:-\d{2}(?:-\d{2})?)?)(?:T[0-9:.]+)?(?:Z|[+-]\d{2}:\d{2})?$/;

/**
 * A DDEX date (xs:date, ddex:IsoDate, or the date part of an xs:dateTime) at the precision given:
 * `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, a real calendar date. An unreadable one is an E_IMPORT_VALUE error.
 */
export function readDate(file: string, node: XNode | undefined): string | undefined {
  const text = textOf(node);
  if (!node || text === undefined) return undefined;
  const m = DATE.exec(text);
  if (!m || !isValidCalendarDate(m[1])) throw valueError(file, node, `"${text}" is not a date (YYYY, YYYY-MM or YYYY-MM-DD)`);
  return m[1];
}

/**
 * A date or date-time as a UTC instant in normalisedCreated's form, which compares as text with
 * SourceUnit.created. A date alone is its first instant; a partial date its first day.
 */
export function readInstant(file: string, node: XNode | undefined, dateOnly: boolean): string | undefined {
  if (!node) return undefined;
  if (dateOnly) {
    const date = readDate(file, node);
    if (date === undefined) return undefined;
    return normalisedCreated(date.length === 4 ? `${date}-01-01` : date.length === 7 ? `${date}-01` : date) ?? undefined;
  }
  const text = textOf(node);
  if (text === undefined) return undefined;
  const instant = normalisedCreated(text);
  if (instant === null) throw valueError(file, node, `"${text}" is not a date and time (xs:dateTime)`);
  return instant;
}

/** A positive whole number (SequenceNumber); an unreadable one is an E_IMPORT_VALUE error. */
export function readCount(file: string, node: XNode | undefined): number | undefined {
  const text = textOf(node);
  if (!node || text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text)) throw valueError(file, node, `"${text}" is not a whole number`);
  return Number(text);
}

/**
 * A (P) or (C) line: the text as given, with the year in front when the text does not contain it
 * (`2019 Label Ltd`); the company when there is no text.
 */
export function lineOf(node: XNode | undefined, kind: 'P' | 'C'): string | undefined {
  if (!node) return undefined;
  const year = childText(node, 'Year');
  const text = childText(node, `${kind}LineText`) ?? childText(node, `${kind}LineCompany`);
  if (text === undefined) return undefined;
  return year !== undefined && !text.includes(year) ? `${year} ${text}` : text;
}

/** `Title (SubTitle)`, unless the subtitle is already in the title. */
export function withSubTitle(title: string, subTitle: string | undefined): string {
  if (subTitle === undefined || title.toLowerCase().includes(subTitle.toLowerCase())) return title;
  return `${title} (${subTitle})`;
}

/** ParentalWarningType → explicit: true, false, or unknown (NoAdviceAvailable, Unknown, UserDefined). */
export function explicitOf(node: XNode | undefined): boolean | undefined {
  switch (textOf(node)) {
    case 'Explicit':
      return true;
    case 'NotExplicit':
    case 'Edited':
    case 'ExplicitContentEdited':
      return false;
    default:
      return undefined;
  }
}

/** GenreText, then SubGenre when there is one. */
export function genresOf(node: XNode | undefined): string[] {
  const genres: string[] = [];
  for (const name of ['GenreText', 'SubGenre']) {
    const text = textOf(child(node, name));
    if (text !== undefined && !genres.includes(text)) genres.push(text);
  }
  return genres;
}
