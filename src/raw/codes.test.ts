import { describe, expect, it } from 'vitest';
import { normalizeIsrc } from './codes.js';

describe('normalizeIsrc', () => {
  it('returns a normalised ISRC as it is, and normalises the rest', () => {
    const code = 'USUM71703861';
    expect(normalizeIsrc(code)).toBe(code);
    expect(normalizeIsrc('usum71703861')).toBe(code);
    expect(normalizeIsrc('US-UM7-17-03861')).toBe(code);
    expect(normalizeIsrc(' US UM7 17 03861 ')).toBe(code);
  });

  it('refuses what is not an ISRC, of twelve characters or not', () => {
    for (const raw of ['USUM7170386', 'USUM717038612', '12UM71703861', 'USUM7A703861', '', 'US-UM7-17-0386X']) expect(normalizeIsrc(raw)).toBeNull();
  });
});
