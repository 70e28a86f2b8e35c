/**
 * A token bucket per client: `rate` requests per second on average, bursts up to `burst`.
 * Buckets that have filled up again are forgotten, so memory follows the active clients only;
 * and at most `maxClients` are tracked (a flood of made-up client addresses evicts the oldest
 * buckets instead of growing the map).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private lastSweep = 0;
  limited = 0;

  constructor(
    readonly rate: number,
    readonly burst: number = Math.max(1, Math.ceil(rate)),
    private readonly now: () => number = () => performance.now(),
    readonly maxClients = 100_000,
  ) {
    if (!(rate > 0)) throw new RangeError(`rate limit must be > 0 requests per second, got ${rate}`);
    if (!(burst >= 1)) throw new RangeError(`rate limit burst must be >= 1, got ${burst}`);
  }

  /** 0 when the request may go ahead; otherwise the seconds until it could (for Retry-After). */
  take(client: string): number {
    const now = this.now();
    this.sweep(now);
    let bucket = this.buckets.get(client);
    if (!bucket) {
      if (this.buckets.size >= this.maxClients) this.evict(now);
      this.buckets.set(client, (bucket = { tokens: this.burst, at: now }));
    } else {
      bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
      bucket.at = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    this.limited++;
    return (1 - bucket.tokens) / this.rate;
  }

  get clients(): number {
    return this.buckets.size;
  }

  /** Room for one more client: full buckets go first, then the oldest. */
  private evict(now: number): void {
    this.sweep(now, true);
    for (const client of this.buckets.keys()) {
      if (this.buckets.size < this.maxClients) break;
      this.buckets.delete(client);
    }
  }

  private sweep(now: number, force = false): void {
    if (!force && now - this.lastSweep < 10_000) return;
    this.lastSweep = now;
    for (const [client, b] of this.buckets) {
      if (b.tokens + ((now - b.at) / 1000) * this.rate >= this.burst) this.buckets.delete(client);
    }
  }
}
