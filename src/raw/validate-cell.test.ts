import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidCalendarDate, validateCell } from './validate-cell.js';

/** The rule as first written: a pattern, then the calendar through Date.UTC. */
function reference(text: string): boolean {
  const m = /^([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2}))?)?$/.exec(text);
  if (!m) return false;
  const year = Number(m[1]);
  if (year < 1000) return false;
  if (m[2] === undefined) return true;
  const month = Number(m[2]);
  if (month < 1 || month > 12) return false;
  if (m[3] === undefined) return true;
  const day = Number(m[3]);
  return day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

describe('calendar dates', () => {
  it('agrees with the pattern and Date.UTC on dates, near-dates and noise', () => {
    const digits = (n: number) => fc.array(fc.constantFrom(...'0123456789'), { minLength: n, maxLength: n }).map((a) => a.join(''));
    const near = fc
      .tuple(digits(4), digits(2), digits(2), fc.constantFrom('-', '/', ''), fc.nat({ max: 3 }))
      .map(([y, m, d, sep, cut]) => [y, `${y}${sep}${m}`, `${y}${sep}${m}${sep}${d}`, `${y}-${m}-${d}x`][cut]);
    const real = fc.date({ min: new Date('0900-01-01'), max: new Date('3000-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    fc.assert(
      fc.property(fc.oneof(near, real, fc.string({ maxLength: 12 }), fc.stringMatching(/^[0-9-]{0,11}$/)), (text) => {
        expect(isValidCalendarDate(text)).toBe(reference(text));
      }),
      { numRuns: 20_000 },
    );
    for (const text of ['2024-02-29', '2023-02-29', '1900-02-29', '2000-02-29', '0999', '1000', '2024-00', '2024-13', '2024-04-31', '٢٠٢٤'])
      expect(isValidCalendarDate(text)).toBe(reference(text));
  });

  it('keeps its messages for a date cell and a datetime cell', () => {
    expect(validateCell('date', '2024-2-01')).toMatchObject({ message: '"2024-2-01" is not YYYY, YYYY-MM or YYYY-MM-DD' });
    expect(validateCell('date', '2023-02-29')).toMatchObject({ message: '"2023-02-29" is not a real calendar date' });
    expect(validateCell('date', ' 2024-02-29 ')).toBe('2024-02-29');
    expect(validateCell('datetime', '2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(validateCell('datetime', '2023-02-29T10:00:00Z')).toMatchObject({ message: '"2023-02-29T10:00:00Z" is not a real calendar date' });
  });
});
