/** HTTP behaviour of the server, set by `omm serve` flags and environment variables. */
export interface HttpOptions {
  /** Cache-Control on cacheable 200s (every GET but /healthz, /readyz, /metrics). */
  readonly cacheControl: string;
  /** Origins allowed to read responses from a browser; `*` for any. */
  readonly corsOrigins: readonly string[];
  /** gzip / brotli by Accept-Encoding. */
  readonly compression: boolean;
  /** Requests per second per client (token bucket); null for no limit. */
  readonly rateLimit: number | null;
  readonly rateLimitBurst: number | null;
  /** Take the client for the rate limit from the first X-Forwarded-For address (behind a proxy). */
  readonly trustProxy: boolean;
  /** Longer request targets are answered 414. */
  readonly maxUrlLength: number;
  readonly keepAliveTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** A response the client takes no byte of for this long is cut (0: never). */
  readonly writeStallTimeoutMs: number;
  /** After SIGTERM, connections still open this long are cut. */
  readonly shutdownTimeoutMs: number;
  /** Simple GET and HEAD requests answered on node:net without node:http's objects (http/fast-connection.ts). */
  readonly fastCore: boolean;
}

export const DEFAULT_HTTP: HttpOptions = {
  cacheControl: 'public, max-age=60',
  corsOrigins: ['*'],
  compression: true,
  rateLimit: null,
  rateLimitBurst: null,
  trustProxy: false,
  maxUrlLength: 12_288,
  keepAliveTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  writeStallTimeoutMs: 60_000,
  shutdownTimeoutMs: 10_000,
  fastCore: process.env.OMM_HTTP_CORE !== 'node',
};

/** Routes whose answers change while a snapshot is in service: never cached, no ETag. */
export const VOLATILE_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);
