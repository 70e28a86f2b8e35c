import { describe, expect, it } from 'vitest';
import { prefersHtml } from './accept.js';

describe('prefersHtml', () => {
  it('is true for browsers and for clients that name text/html first', () => {
    expect(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8')).toBe(true); // Chromium
    expect(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true); // Firefox
    expect(prefersHtml('text/html')).toBe(true);
    expect(prefersHtml('TEXT/HTML')).toBe(true);
    expect(prefersHtml('text/*')).toBe(true);
    expect(prefersHtml('text/html, application/json;q=0.9')).toBe(true);
  });

  it('is false for API clients: no header, the wildcard, JSON, a tie, or HTML refused', () => {
    expect(prefersHtml(undefined)).toBe(false);
    expect(prefersHtml('')).toBe(false);
    expect(prefersHtml('*/*')).toBe(false); // curl
    expect(prefersHtml('application/json')).toBe(false);
    expect(prefersHtml('application/json, text/plain, */*')).toBe(false); // axios
    expect(prefersHtml('application/json, text/html')).toBe(false);
    expect(prefersHtml('text/html;q=0.5, application/json')).toBe(false);
    expect(prefersHtml('text/html;q=0, */*')).toBe(false);
    expect(prefersHtml('text/plain')).toBe(false);
    expect(prefersHtml('text/html;q=abc')).toBe(false);
  });
});
