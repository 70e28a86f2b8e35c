import { describe, expect, it } from 'vitest';
import { searchText, searchTextOfAnyScript as general } from './search-text.js';

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
