import { createHash } from 'node:crypto';

/**
 * A deterministic MusicBrainz-style identifier (a version-4-shaped UUID) for the entity `kind`
 * number or key `key` of the catalog generated from `seed`: the same inputs give the same MBID,
 * different kinds or seeds different ones.
 */
export function mbid(seed: number, kind: string, key: number | string): string {
  const h = createHash('sha256').update(`omm-generate/${seed}/${kind}/${key}`).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
