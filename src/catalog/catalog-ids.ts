import { sha256OfString } from './sha256-short.js';

/** The types that carry a catalog id (`omm:<type>:<16 chars>`), stable across rebuilds. */
export type CatalogType = 'song' | 'album' | 'artist';

/**
 * The 16-character catalog id suffix of a row without an `omm_id`: the first 80 bits of
 * SHA-256("<type>:<local id>") in base 36, zero-padded. Stable across rebuilds by construction.
 */
export function deriveOmmId(type: CatalogType, localId: string): string {
  sha256OfString(`${type}:${localId}`, digest);
  // The 80 bits as five 16-bit limbs, most significant first; four long divisions by 36^4 give
  // the four groups of four base-36 digits, least significant first.
  let l0 = digest[0] >>> 16;
  let l1 = digest[0] & 0xffff;
  let l2 = digest[1] >>> 16;
  let l3 = digest[1] & 0xffff;
  let l4 = digest[2] >>> 16;
  let out = '';
  for (let group = 0; group < 4; group++) {
    let v = l0;
    l0 = Math.floor(v / GROUP);
    v = (v - l0 * GROUP) * 65536 + l1;
    l1 = Math.floor(v / GROUP);
    v = (v - l1 * GROUP) * 65536 + l2;
    l2 = Math.floor(v / GROUP);
    v = (v - l2 * GROUP) * 65536 + l3;
    l3 = Math.floor(v / GROUP);
    v = (v - l3 * GROUP) * 65536 + l4;
    l4 = Math.floor(v / GROUP);
    const digits = (v - l4 * GROUP).toString(36);
    out = '000'.slice(digits.length - 1) + digits + out;
  }
  return out;
}

const digest = new Int32Array(8);
/** 36^4: four base-36 digits. */
const GROUP = 1_679_616;

/** `song`, `0123456789abcdef` -> `omm:song:0123456789abcdef`. */
export const catalogIdOf = (type: CatalogType, ommId: string): string => `omm:${type}:${ommId}`;

const CATALOG_ID = /^omm:(song|album|artist):([0-9a-z]{16})$/;

/** `omm:song:0123456789abcdef` -> its parts, or null. */
export function parseCatalogId(id: string): { type: CatalogType; ommId: string } | null {
  const m = CATALOG_ID.exec(id);
  return m ? { type: m[1] as CatalogType, ommId: m[2] } : null;
}
