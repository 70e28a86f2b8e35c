/**
 * CORS by origin allowlist: `*` (the default) lets any origin read; otherwise the request's
 * Origin is echoed back only when listed, with `Vary: Origin` so caches keep them apart.
 */
export class CorsPolicy {
  private readonly any: boolean;
  private readonly allowed: Set<string>;

  constructor(origins: readonly string[]) {
    this.any = origins.includes('*');
    this.allowed = new Set(origins.map((o) => o.replace(/\/$/, '').toLowerCase()));
  }

  get varies(): boolean {
    return !this.any;
  }

  /** The Access-Control-Allow-Origin value for a request, or null (no CORS headers). */
  allowOrigin(origin: string | undefined): string | null {
    if (this.any) return '*';
    if (!origin) return null;
    return this.allowed.has(origin.toLowerCase()) ? origin : null;
  }
}

/** Headers of a CORS preflight answer for an allowed origin. */
export function preflightHeaders(allowOrigin: string, requestHeaders: string | undefined): Record<string, string> {
  return {
    'access-control-allow-origin': allowOrigin,
    'access-control-allow-methods': 'GET, HEAD',
    'access-control-allow-headers': requestHeaders ?? '',
    'access-control-max-age': '86400',
  };
}

/** Response headers a browser script may read. */
export const EXPOSED_HEADERS = 'ETag, X-Request-Id, Retry-After';
