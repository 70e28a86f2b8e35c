import { describe, expect, it } from 'vitest';
import { differentBytesWithin, ONE_EDIT_BYTES } from './byte-diff.js';

const utf8 = (s: string) => Buffer.from(s, 'utf8');
const differ = (a: string, b: string, slack = ONE_EDIT_BYTES) => {
  // The stored string sits inside a larger buffer, as names do in their section.
  const stored = Buffer.concat([utf8('«pad»'), utf8(a), utf8('«pad»')]);
  return differentBytesWithin(stored, utf8('«pad»').length, utf8(a).length, utf8(b), slack);
};

describe('differentBytesWithin', () => {
  it.each([
    ['midnight city', 'midnight city', ONE_EDIT_BYTES, true],
    ['midnight city', 'midnight cty', ONE_EDIT_BYTES, true], // dropped
    ['midnight city', 'mdinight city', ONE_EDIT_BYTES, true], // swapped
    ['naïve heart', 'naive heart', ONE_EDIT_BYTES, true], // a 2-byte letter for a 1-byte one
    ['😀 smile 😁', '😁 smile 😁', ONE_EDIT_BYTES, true], // 4 bytes changed at the start
    ['😀😁 smile', '😁😀 smile', ONE_EDIT_BYTES, true], // two 4-byte neighbours swapped: 8 bytes each side
    ['midnight city', 'summer nights', ONE_EDIT_BYTES, false],
    ['midnight city', 'midnight citi', 4, true], // 4 bytes more or fewer is within a slack of 4
    ['midnight city', 'midnight citizens', 4, false], // 5 is not
  ] as const)('%s / %s, slack %i -> %s', (a, b, slack, expected) => {
    expect(differ(a, b, slack)).toBe(expected);
  });
});
