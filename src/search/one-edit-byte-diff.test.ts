import { describe, expect, it } from 'vitest';
import { differentBytesWithin, ONE_EDIT_BYTES } from '../index-format/search/byte-diff.js';
import { withinOneEdit } from './one-edit.js';

const utf8 = (s: string) => Buffer.from(s, 'utf8');
const differ = (a: string, b: string, slack = ONE_EDIT_BYTES) => {
  // The stored string sits inside a larger buffer, as names do in their section.
  const stored = Buffer.concat([utf8('«pad»'), utf8(a), utf8('«pad»')]);
  return differentBytesWithin(stored, utf8('«pad»').length, utf8(a).length, utf8(b), slack);
};

// The index's byte test is a necessary condition of the matcher's edit test: checked against it here,
// above both, so that the bytes layer needs nothing from search.
describe('differentBytesWithin against withinOneEdit', () => {
  it('is never false for strings one edit apart, in four UTF-8 widths, and rules out most others', () => {
    let x = 11;
    const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const alphabet = ['a', 'b', ' ', 'é', 'ß', '中', 'の', '😀', '𝒜'];
    const pick = () => alphabet[Math.floor(next() * alphabet.length)];
    const word = () => Array.from({ length: 1 + Math.floor(next() * 14) }, pick);
    const edit = (w: string[]): string[] => {
      const out = [...w];
      const i = Math.floor(next() * out.length);
      const op = Math.floor(next() * 4);
      if (op === 0) out[i] = pick();
      else if (op === 1) out.splice(i, 1);
      else if (op === 2) out.splice(i, 0, pick());
      else if (i + 1 < out.length) [out[i], out[i + 1]] = [out[i + 1], out[i]];
      return out;
    };
    let near = 0;
    let unrelated = 0;
    let ruledOut = 0;
    for (let n = 0; n < 20_000; n++) {
      const a = word();
      const b = next() < 0.5 ? edit(a) : word();
      const [sa, sb] = [a.join(''), b.join('')];
      if (withinOneEdit(sa, sb)) {
        near++;
        expect(differ(sa, sb), `${sa} / ${sb}`).toBe(true);
        expect(differ(sb, sa), `${sb} / ${sa}`).toBe(true);
      } else if (a.length >= 8 && b.length >= 8) {
        unrelated++;
        if (!differ(sa, sb)) ruledOut++;
      }
    }
    expect(near).toBeGreaterThan(5_000);
    expect(unrelated).toBeGreaterThan(1_000);
    expect(ruledOut / unrelated).toBeGreaterThan(0.9);
  });
});
