import { describe, expect, it } from 'vitest';
import { bytes, count } from './readable.js';

describe('numbers as a person reads them', () => {
  it('writes sizes in binary units, whole bytes below 1 KiB', () => {
    expect([0, 12, 1023].map(bytes)).toEqual(['0 B', '12 B', '1023 B']);
    expect([1024, 1536, 10 * 1024, 123456789, 5 * 2 ** 40, 2 ** 50].map(bytes)).toEqual([
      '1.00 KiB',
      '1.50 KiB',
      '10.0 KiB',
      '117.7 MiB',
      '5.00 TiB',
      '1024.0 TiB',
    ]);
  });

  it('writes counts with thousands separators', () => {
    expect([0, 999, 1234567].map(count)).toEqual(['0', '999', '1,234,567']);
  });
});
