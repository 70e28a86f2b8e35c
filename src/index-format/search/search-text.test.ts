import { describe, expect, it } from 'vitest';
import { searchText, searchTextOfAnyScript as general } from './search-text.js';

describe('searchText', () => {
  it('gives ASCII text what the general path gives, for every ASCII character in many arrangements', () => {
    const all = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).join('');
    expect(searchText(all)).toBe(general(all));
    let seed = 3;
    const next = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
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

  it('folds the marks a reader may leave out: Hebrew points, Arabic vowel signs and hamza, variation selectors', () => {
    expect(searchText('שָׁלוֹם')).toBe('שלום');
    expect(searchText('أغنية')).toBe('اغنية');
    expect(searchText('أغنية')).toBe(searchText('اغنية'));
    expect(searchText('مُحَمَّد')).toBe('محمد');
    expect(searchText('❤️ Love')).toBe('love');
  });

  it('keeps the marks that spell a word in it: Indic vowel signs and viramas, Thai vowels and tones', () => {
    expect(searchText('नमस्ते दुनिया')).toBe('नमस्ते दुनिया');
    expect(searchText('क़िला')).toBe('क़िला'.normalize('NFKD'));
    expect(searchText('தமிழ் பாடல்')).toBe('தமிழ் பாடல்');
    expect(searchText('ที่รัก')).toBe('ที่รัก');
  });

  it('drops a mark that follows no letter, without leaving an empty word', () => {
    expect(searchText('が')).toBe('か');
    expect(searchText('ガ ◌̃x')).toBe('カ x');
    expect(searchText('x \u3099\u3099 y')).toBe('x y');
    for (const text of ['が ぎ', 'ガ ◌̃x', '\u0903abc', 'a \u093f b']) expect(searchText(text).split(' ')).not.toContain('');
  });
});
