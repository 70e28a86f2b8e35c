import { describe, expect, it } from 'vitest';
import { searchText } from './search-text.js';

/** The general path alone (what searchText does for any text), to hold the ASCII shortcut to. */
function general(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/đ/g, 'd')
    .replace(/ø/g, 'o')
    .replace(/ł/g, 'l')
    .replace(/æ/g, 'ae')
    .replace(/œ/g, 'oe')
    .replace(/([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff])/g, ' $1 ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

describe('searchText', () => {
  it('gives ASCII text what the general path gives, for every ASCII character in many arrangements', () => {
    const all = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).join('');
    expect(searchText(all)).toBe(general(all));
    let seed = 3;
    const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    for (let n = 0; n < 5000; n++) {
      const text = Array.from({ length: next(30) }, () => String.fromCharCode(next(128))).join('');
      expect(searchText(text), JSON.stringify(text)).toBe(general(text));
    }
  });

  it('folds accents, case, special letters and splits CJK', () => {
    expect(searchText('Ärzte — Straße, Łódź & Ørsted')).toBe('arzte strasse lodz orsted');
    expect(searchText('坂本龍一 Live')).toBe('坂 本 龍 一 live');
    expect(searchText('  The   BEATLES!! ')).toBe('the beatles');
  });
});
