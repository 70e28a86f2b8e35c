/** Industry codes: ISRC (recordings) and GTIN/UPC/EAN (releases). Pure functions. */

const ISRC_SHAPE = /^[A-Z]{2}[A-Z0-9]{3}[0-9]{2}[0-9]{5}$/;

/** Upper-cases and strips hyphens and spaces; returns null when the result is not an ISRC. */
export function normalizeIsrc(raw: string): string | null {
  // Most values arrive normalised already: one test, no new strings.
  if (raw.length === 12 && ISRC_SHAPE.test(raw)) return raw;
  const code = raw.replace(/[\s-]/g, '').toUpperCase();
  return ISRC_SHAPE.test(code) ? code : null;
}

/** GS1 check digit of the first n-1 digits of a GTIN of any length. */
export function gs1CheckDigit(digitsWithoutCheck: string): number {
  let sum = 0;
  // Weights alternate 3,1,3,... starting from the rightmost digit.
  for (let i = digitsWithoutCheck.length - 1, w = 3; i >= 0; i--, w = 4 - w) {
    sum += (digitsWithoutCheck.charCodeAt(i) - 48) * w;
  }
  return (10 - (sum % 10)) % 10;
}

/** Appends the GS1 check digit. */
export function withGs1CheckDigit(digitsWithoutCheck: string): string {
  return digitsWithoutCheck + String(gs1CheckDigit(digitsWithoutCheck));
}

/**
 * Normalises a 12-digit UPC-A or 13-digit EAN-13 (spaces and hyphens allowed) to GTIN-13.
 * Returns null when the shape or check digit is wrong.
 */
export function normalizeGtin13(raw: string): string | null {
  const digits = raw.replace(/[\s-]/g, '');
  if (!/^[0-9]{12,13}$/.test(digits)) return null;
  const check = digits.charCodeAt(digits.length - 1) - 48;
  if (gs1CheckDigit(digits.slice(0, -1)) !== check) return null;
  return digits.length === 12 ? `0${digits}` : digits;
}

/** Digits only, as given (12 or 13), or null when invalid. */
export function cleanUpc(raw: string): string | null {
  const digits = raw.replace(/[\s-]/g, '');
  return normalizeGtin13(digits) === null ? null : digits;
}
