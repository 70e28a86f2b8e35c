import { normalizeGtin13, normalizeIsrc } from '../../raw/codes.js';
import { badRequest } from '../api-error.js';
import type { Catalog, ResourceType } from '../../catalog/catalog.js';
import { commaList, type Query } from '../query.js';

export const MAX_LOOKUP_VALUES = 100;
export const MAX_CATALOG_PARAM_CHARS = 10000;
export const TOO_MANY_VALUES = 'Maximum 100 lookup values allowed';

/** Comma-separated values of a lookup parameter, at most 100. */
export function lookupValues(q: Query, name: string): string[] {
  const values = commaList(q.get(name) ?? '');
  if (values.length > MAX_LOOKUP_VALUES) throw badRequest(TOO_MANY_VALUES, name, values.length);
  return values;
}

/** Exactly one of the given parameters must be present; returns its name. */
export function exactlyOne(q: Query, names: readonly string[], message: string): string {
  let found: string | undefined;
  let count = 0;
  for (const n of names) {
    if (q.has(n)) {
      found = n;
      count++;
    }
  }
  if (count !== 1) throw badRequest(message, count === 0 ? names.join('|') : names.filter((n) => q.has(n)).join(','));
  return found!;
}

/** Ordinals for ids in request order: unknown ids left out, repeats repeated. */
export function resolveIds(cat: Catalog, type: ResourceType, ids: readonly string[]): number[] {
  const out: number[] = [];
  for (const id of ids) {
    const o = cat.resolve(type, id);
    if (o >= 0) out.push(o);
  }
  return out;
}

/** Songs for ISRCs in request order (trimmed, case-insensitive); one ISRC may give several songs. */
export function resolveIsrcs(cat: Catalog, isrcs: readonly string[]): number[] {
  const codes: string[] = [];
  for (const raw of isrcs) {
    const code = normalizeIsrc(raw);
    if (code) codes.push(code);
  }
  const keys = cat.keys('song.isrc');
  if (codes.length > 1) keys.touch(codes);
  const out: number[] = [];
  for (const code of codes) for (const ordinal of keys.getAll(code)) out.push(ordinal);
  return out;
}

/** Albums for UPC/EAN values in request order, compared as GTIN-13. */
export function resolveUpcs(cat: Catalog, upcs: readonly string[]): number[] {
  const out: number[] = [];
  for (const raw of upcs) {
    const gtin = normalizeGtin13(raw.trim());
    if (gtin) out.push(...cat.keys('album.upc').getAll(gtin));
  }
  return out;
}
