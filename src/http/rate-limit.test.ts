import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.js';

describe('RateLimiter', () => {
  it('lets a burst through, then one request per 1/rate seconds, and says how long to wait', () => {
    let now = 0;
    const limiter = new RateLimiter(2, 3, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBeCloseTo(0.5);
    now += 250;
    expect(limiter.take('a')).toBeCloseTo(0.25);
    now += 250;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('b')).toBe(0);
    expect(limiter.limited).toBe(2);
  });

  it('forgets clients whose bucket refilled, and never tracks more than maxClients', () => {
    let now = 0;
    const limiter = new RateLimiter(1, 1, () => now, 100);
    for (let i = 0; i < 1000; i++) limiter.take(`made-up-${i}`);
    expect(limiter.clients).toBe(100);
    // The newest are kept: the last client is still limited.
    expect(limiter.take('made-up-999')).toBeGreaterThan(0);
    now += 20_000;
    limiter.take('someone');
    expect(limiter.clients).toBe(1);
  });

  it('refuses nonsense settings', () => {
    expect(() => new RateLimiter(0)).toThrow(/> 0/);
    expect(() => new RateLimiter(5, 0)).toThrow(/burst/);
  });
});
