import { describe, expect, it } from 'vitest';
import { editDistance } from './typo-variants.js';
import { withinOneEdit } from './one-edit.js';

describe('withinOneEdit', () => {
  it.each([
    ['ronald', 'ranald', true], // changed
    ['heart', 'heat', true], // dropped
    ['heat', 'heart', true], // added
    ['form', 'from', true], // swapped neighbours
    ['abcd', 'badc', false], // two swaps
    ['kitten', 'sitting', false],
    ['さよなら', 'さoなら', true],
    ['😀ab', '😀ba', true], // astral code points count once
    ['😀', '😁', true],
  ])('%s / %s -> %s', (a, b, expected) => {
    expect(withinOneEdit(a, b)).toBe(expected);
  });

  it('agrees with the full edit distance on random words', () => {
    let x = 7;
    const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const word = () => Array.from({ length: 1 + Math.floor(next() * 6) }, () => 'abc'[Math.floor(next() * 3)]).join('');
    for (let i = 0; i < 5000; i++) {
      const a = word();
      const b = next() < 0.5 ? word() : a.slice(0, 2) + 'abc'[Math.floor(next() * 3)] + a.slice(3);
      expect(withinOneEdit(a, b), `${a} / ${b}`).toBe(editDistance(a, b, 1) <= 1);
    }
  });
});
