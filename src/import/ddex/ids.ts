import { cleanUpc, normalizeGtin13 } from '../../raw/codes.js';
import { unitDigest as sha256 } from '../stage/source-unit.js';

/** A release's identifiers as the message gives them (the first of each kind in its ReleaseIds). */
export interface ReleaseIds {
  readonly icpn?: string;
  readonly grid?: string;
  readonly proprietaryId?: string;
}

export interface ResolvedRelease {
  /** The album id, or undefined when the release has no usable identifier. */
  readonly id?: string;
  readonly upc?: string;
  readonly grid?: string;
  /** Things kept but changed, for ImportReport.warn. */
  readonly warnings: string[];
}

/** A GRid without hyphens or spaces, upper case: 18 letters and digits. */
export function normalizeGrid(raw: string): string | null {
  const grid = raw.replace(/[\s-]/g, '').toUpperCase();
  return /^[A-Z0-9]{18}$/.test(grid) ? grid : null;
}

/** An ISNI without spaces or hyphens, upper case: 15 digits and a check character. */
export function normalizeIsni(raw: string): string | null {
  const isni = raw.replace(/[\s-]/g, '').toUpperCase();
  return /^[0-9]{15}[0-9X]$/.test(isni) ? isni : null;
}

/** `pid-` + the ProprietaryId when it is id-safe and short enough; otherwise a safe prefix of it and a hash of the whole. */
export function proprietaryAlbumId(raw: string): string {
  const safe = raw.replace(/[^A-Za-z0-9._~-]/g, '_');
  const id = `pid-${safe}`;
  if (safe === raw && id.length <= 64) return id;
  return `pid-${safe.slice(0, 47)}~${sha256(raw).slice(0, 12)}`;
}

/**
 * The album id of a release: its ICPN as GTIN-13 (`normalizeGtin13`, so the 12-digit UPC-A, the
 * 13-digit EAN and the 14-digit form with a leading 0 are one album), else its GRid, else an ICPN
 * that fails the GS1 check as written (it still names the product in later updates), else
 * `pid-` + its ProprietaryId. The UPC is the ICPN's digits (a 14th leading 0 dropped) when they
 * are a valid UPC-A or EAN-13.
 */
export function resolveRelease(ids: ReleaseIds): ResolvedRelease {
  const warnings: string[] = [];
  let gtin: string | null = null;
  let upc: string | undefined;
  let badIcpn: string | undefined;
  if (ids.icpn !== undefined) {
    let digits = ids.icpn.replace(/[\s-]/g, '');
    if (digits.length === 14 && digits.startsWith('0')) digits = digits.slice(1);
    gtin = normalizeGtin13(digits);
    if (gtin) upc = cleanUpc(digits) ?? undefined;
    else {
      warnings.push(`ICPN "${ids.icpn}" is not a valid UPC-A or EAN-13 (length or check digit); the album has no UPC`);
      if (/^[0-9]{1,64}$/.test(digits)) badIcpn = digits;
    }
  }
  let grid: string | undefined;
  if (ids.grid !== undefined) {
    grid = normalizeGrid(ids.grid) ?? undefined;
    if (!grid) warnings.push(`GRid "${ids.grid}" is not 18 letters and digits; left out`);
  }
  const id = gtin ?? grid ?? badIcpn ?? (ids.proprietaryId !== undefined ? proprietaryAlbumId(ids.proprietaryId) : undefined);
  return { id, upc, grid, warnings };
}

/**
 * The artist id of a credited party. A party with an ISNI is `isni-<ISNI>`. Without one, DDEX
 * gives no identifier that lasts beyond the message (PartyReference is message-local), so the id
 * is `a-` + the first 16 hex digits of SHA-256 of the NFC-normalised name: the same name is the
 * same artist across messages and senders. Two different artists who share a name are merged;
 * that is the price of ids that stay put from one delivery to the next.
 */
export function artistId(name: string, isni: string | undefined): string {
  return isni ? `isni-${isni}` : `a-${sha256(name.normalize('NFC')).slice(0, 16)}`;
}
