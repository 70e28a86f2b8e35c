import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveOmmId } from './catalog-ids.js';

/** The definition: the first 80 bits of SHA-256("<type>:<local id>") in base 36, zero-padded to 16. */
function byDefinition(type: string, localId: string): string {
  const digest = hash('sha256', `${type}:${localId}`, 'buffer');
  const n = digest.readBigUInt64BE(0) * 65536n + BigInt(digest.readUInt16BE(8));
  return n.toString(36).padStart(16, '0');
}

describe('deriveOmmId', () => {
  it('is the definition, for many ids of every type (catalog ids must never change)', () => {
    for (const type of ['song', 'album', 'artist'] as const) {
      for (let n = 0; n < 3000; n++) {
        const id = n % 3 === 0 ? String(n) : n % 3 === 1 ? `x-${n * 7919}` : `Ü${n}坂`;
        expect(deriveOmmId(type, id)).toBe(byDefinition(type, id));
      }
    }
  });

  it('keeps known values', () => {
    expect(deriveOmmId('song', '100')).toBe('51x1sv2zhsoes06t');
  });
});
