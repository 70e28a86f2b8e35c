/**
 * Ids are joined by a 96-bit hash in three u32 lanes rather than by the ids themselves, so the
 * sorts that find duplicates and resolve references move fixed-width records only. Local ids are
 * 1..64 ASCII characters (docs/raw-format.md). Two different defined ids with one hash are
 * caught (their text is compared); a reference whose id is not defined but hashes like one that
 * is would resolve to it: with 96 bits, at 100M ids and 500M references that happens with a
 * probability below 1e-12 per compile.
 */
export const idHash = new Uint32Array(3);

const fmix = (h: number): number => {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};

/** Hashes `text` into `idHash[0..2]` (three independently seeded and mixed lanes). */
export function hashId(text: string): void {
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ text.length;
  let c = 0x3c6ef372;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    a = Math.imul(a ^ k, 0x01000193);
    b = Math.imul(b ^ k, 0x5bd1e995);
    b ^= b >>> 15;
    c = Math.imul(c + k, 0x27d4eb2f);
    c = (c << 13) | (c >>> 19);
  }
  idHash[0] = fmix(a ^ text.length);
  idHash[1] = fmix(b);
  idHash[2] = fmix(c ^ 0x165667b1);
}
