import { readFileSync } from 'node:fs';
import { parseCatalogId } from '../catalog/catalog-ids.js';
import { normalizeGtin13, normalizeIsrc } from '../raw/codes.js';
import { TakedownError } from './takedown-error.js';

/**
 * What a takedown names: a song by ISRC, an album by UPC (or EAN/GTIN), any song, album or
 * artist by catalog id (`omm:<type>:<id>`), or an album by its local id (what a DDEX takedown
 * names: the release's ICPN, GRid or proprietary id, as the importer made it the album id).
 */
export type TakedownKey =
  | { readonly kind: 'isrc'; readonly value: string }
  | { readonly kind: 'upc'; readonly value: string }
  | { readonly kind: 'id'; readonly value: string }
  | { readonly kind: 'album'; readonly value: string };

/** `--isrc` values: 12 characters, hyphens and case as people write them. */
export function isrcKey(text: string, where = '--isrc'): TakedownKey {
  const value = normalizeIsrc(text.trim());
  if (value === null) throw new TakedownError('E_TAKEDOWN_KEY', `${where}: ${JSON.stringify(text)} is not an ISRC (CC-XXX-YY-NNNNN)`);
  return { kind: 'isrc', value };
}

/** `--upc` values: a UPC-A or EAN-13 with its check digit, compared as GTIN-13 (as the lookups do). */
export function upcKey(text: string, where = '--upc'): TakedownKey {
  const value = normalizeGtin13(text.trim());
  if (value === null)
    throw new TakedownError('E_TAKEDOWN_KEY', `${where}: ${JSON.stringify(text)} is not a UPC/EAN (12 or 13 digits with a valid check digit)`);
  return { kind: 'upc', value };
}

/** `--id` values: a catalog id of a song, album or artist. */
export function idKey(text: string, where = '--id'): TakedownKey {
  const value = text.trim();
  if (!parseCatalogId(value))
    throw new TakedownError('E_TAKEDOWN_KEY', `${where}: ${JSON.stringify(text)} is not a catalog id (omm:song:…, omm:album:…, omm:artist:…)`);
  return { kind: 'id', value };
}

/** A line of a `--file` list: its kind told by its shape (`isrc:`, `upc:`, `album:` may say it outright). */
function lineKey(line: string, where: string): TakedownKey {
  const prefixed = /^(isrc|upc|id|album):\s*(.+)$/i.exec(line);
  if (prefixed) {
    const kind = prefixed[1].toLowerCase();
    const value = prefixed[2].trim();
    if (kind === 'isrc') return isrcKey(value, where);
    if (kind === 'upc') return upcKey(value, where);
    if (kind === 'id') return idKey(value, where);
    return { kind: 'album', value };
  }
  if (line.startsWith('omm:')) return idKey(line, where);
  if (/^\d{12,13}$/.test(line)) return upcKey(line, where);
  if (/^[A-Za-z]{2}-?[A-Za-z0-9]{3}-?\d{2}-?\d{5}$/.test(line)) return isrcKey(line, where);
  throw new TakedownError(
    'E_TAKEDOWN_KEY',
    `${where}: ${JSON.stringify(line)} is neither an ISRC, a UPC nor a catalog id (prefix it with isrc:, upc:, id: or album:)`,
  );
}

/**
 * The keys of a list file: one per line; blank lines and `#` comments are skipped. A line that
 * is no key fails naming the file and line.
 */
export function listFileKeys(path: string): TakedownKey[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new TakedownError('E_TAKEDOWN_IO', `${path}: ${(err as Error).message}`);
  }
  const keys: TakedownKey[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (line.length > 0) keys.push(lineKey(line, `${path}:${i + 1}`));
  });
  return keys;
}

/** How a key reads in a report: `isrc:GBAYE0601498`. */
export const keyText = (key: TakedownKey): string => (key.kind === 'id' ? key.value : `${key.kind}:${key.value}`);
