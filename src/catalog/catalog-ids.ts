import { hash } from 'node:crypto';

/** The types that carry a catalog id (`omm:<type>:<16 chars>`), stable across rebuilds. */
export type CatalogType = 'song' | 'album' | 'artist';

/**
 * The 16-character catalog id suffix of a row without an `omm_id`: the first 80 bits of
 * SHA-256("<type>:<local id>") in base 36, zero-padded. Stable across rebuilds by construction.
 */
export function deriveOmmId(type: CatalogType, localId: string): string {
  const digest = hash('sha256', `${type}:${localId}`, 'buffer');
  const n = digest.readBigUInt64BE(0) * 65536n + BigInt(digest.readUInt16BE(8));
  return n.toString(36).padStart(16, '0');
}

/** `song`, `0123456789abcdef` -> `omm:song:0123456789abcdef`. */
export const catalogIdOf = (type: CatalogType, ommId: string): string => `omm:${type}:${ommId}`;

const CATALOG_ID = /^omm:(song|album|artist):([0-9a-z]{16})$/;

/** `omm:song:0123456789abcdef` -> its parts, or null. */
export function parseCatalogId(id: string): { type: CatalogType; ommId: string } | null {
  const m = CATALOG_ID.exec(id);
  return m ? { type: m[1] as CatalogType, ommId: m[2] } : null;
}
