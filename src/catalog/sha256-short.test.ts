import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256OfString } from './sha256-short.js';

const hex = (words: Int32Array) => Array.from(words, (x) => (x >>> 0).toString(16).padStart(8, '0')).join('');
const reference = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('sha256OfString', () => {
  it('agrees with node:crypto for every length across block boundaries, ASCII and not', () => {
    const out = new Int32Array(8);
    for (let length = 0; length <= 200; length++) {
      for (const unit of ['a', 'é', '坂', '😀']) {
        const text = `song:${unit.repeat(length)}`.slice(0, 5 + length);
        sha256OfString(text, out);
        expect(hex(out), `${JSON.stringify(text)}`).toBe(reference(text));
      }
    }
  });

  it('agrees on random ids', () => {
    const out = new Int32Array(8);
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let n = 0; n < 2000; n++) {
      const text = `artist:${Array.from({ length: 1 + (next() % 64) }, () => String.fromCharCode(33 + (next() % 94))).join('')}`;
      sha256OfString(text, out);
      expect(hex(out)).toBe(reference(text));
    }
  });
});
