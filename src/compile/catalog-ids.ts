import { hash } from 'node:crypto';

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

export const catalogId = (type: CatalogType, ommId: string): string => `omm:${type}:${ommId}`;
