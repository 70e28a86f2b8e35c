import { describe, expect, it } from 'vitest';
import { mapOrdinals, sliceOrdinals } from './ordinal-slice.js';

describe('sliceOrdinals', () => {
  it('copies [from, to) of a typed array or an array into a plain array, as Array.prototype.slice does for in-range and past-the-end bounds', () => {
    const values = Uint32Array.from([5, 3, 9, 1, 7]);
    for (const [from, to] of [
      [0, 2],
      [1, 4],
      [3, 99],
      [5, 6],
      [7, 9],
      [2, 2],
      [4, 1],
    ]) {
      const got = sliceOrdinals(values, from, to);
      expect(Array.isArray(got)).toBe(true);
      expect(got, `${from}..${to}`).toEqual(Array.prototype.slice.call(values, from, to));
      expect(sliceOrdinals([...values], from, to)).toEqual([...values].slice(from, to));
    }
  });

  it('maps the first count ordinals, or all of a shorter list', () => {
    const values = Uint32Array.from([5, 3, 9]);
    expect(mapOrdinals(values, 2, (o) => o * 10)).toEqual([50, 30]);
    expect(mapOrdinals(values, 25, (o) => `#${o}`)).toEqual(['#5', '#3', '#9']);
    expect(mapOrdinals(values, 0, (o) => o)).toEqual([]);
  });
});
