import { describe, expect, it } from 'vitest';
import { negotiateEncoding } from './compression.js';
import { CorsPolicy } from './cors.js';
import { ifNoneMatchHits } from './etag.js';

describe('negotiateEncoding', () => {
  it('prefers brotli, then gzip, honours q=0 and *', () => {
    expect(negotiateEncoding(undefined)).toBeNull();
    expect(negotiateEncoding('identity')).toBeNull();
    expect(negotiateEncoding('gzip, deflate, br')).toBe('br');
    expect(negotiateEncoding('gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(negotiateEncoding('BR')).toBe('br');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*;q=0')).toBeNull();
    expect(negotiateEncoding('x-gzip')).toBe('gzip');
  });
});

describe('ifNoneMatchHits', () => {
  it('matches any listed tag, weakly, and *', () => {
    expect(ifNoneMatchHits('"a", "b"', ['"b"'])).toBe(true);
    expect(ifNoneMatchHits('W/"b"', ['"b"'])).toBe(true);
    expect(ifNoneMatchHits('*', ['"b"'])).toBe(true);
    expect(ifNoneMatchHits('"c"', ['"b"'])).toBe(false);
    expect(ifNoneMatchHits(undefined, ['"b"'])).toBe(false);
  });
});

describe('CorsPolicy', () => {
  it('echoes only listed origins (case-insensitively, trailing slash ignored) unless *', () => {
    const list = new CorsPolicy(['https://App.example.com/']);
    expect(list.allowOrigin('https://app.example.com')).toBe('https://app.example.com');
    expect(list.allowOrigin('https://other.example.com')).toBeNull();
    expect(list.allowOrigin(undefined)).toBeNull();
    expect(list.varies).toBe(true);
    const any = new CorsPolicy(['*']);
    expect(any.allowOrigin(undefined)).toBe('*');
    expect(any.varies).toBe(false);
  });
});
