import { ApiError, badRequest } from './api-error.js';
import type { ErrorStyle } from './error-response.js';

export interface Match<H> {
  readonly handler: H;
  readonly params: Record<string, string>;
  readonly style: ErrorStyle;
}

interface Route<H> {
  readonly segments: readonly string[];
  readonly handler: H;
  readonly style: ErrorStyle;
}

/**
 * Path routing by segments (`/v1/song/:id`). Static segments are tried before parameters, so
 * `/v1/stations/popular` wins over `/v1/stations/:type/:id`. Segments are percent-decoded;
 * a malformed escape is a 400, never a crash.
 */
export class Router<H> {
  private readonly routes: Route<H>[] = [];

  add(pattern: string, style: ErrorStyle, handler: H): this {
    this.routes.push({ segments: split(pattern), handler, style });
    return this;
  }

  /** The matching route, or null (404). */
  match(pathname: string): Match<H> | null {
    const raw = split(pathname);
    let best: { route: Route<H>; score: number } | null = null;
    for (const route of this.routes) {
      if (route.segments.length !== raw.length) continue;
      let score = 0;
      let ok = true;
      for (let i = 0; i < raw.length && ok; i++) {
        const s = route.segments[i];
        if (s.startsWith(':')) continue;
        if (s === raw[i]) score += 1 << (raw.length - i);
        else ok = false;
      }
      if (ok && (!best || score > best.score)) best = { route, score };
    }
    if (!best) return null;
    const params: Record<string, string> = {};
    best.route.segments.forEach((s, i) => {
      if (s.startsWith(':')) params[s.slice(1)] = decodeSegment(raw[i], s.slice(1));
    });
    return { handler: best.route.handler, params, style: best.route.style };
  }
}

/** "/v1/song/1/" -> ["v1", "song", "1"]; "/v1/" -> ["v1", ""] (the prefix root is a route). */
function split(path: string): string[] {
  const parts = path.split('/').slice(1);
  if (parts.length > 2 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

function decodeSegment(segment: string, name: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`${name} is not valid percent-encoded UTF-8`, name, segment);
  }
}

export const methodNotAllowed = (): ApiError => new ApiError(405, 'Method not allowed; this service answers GET and HEAD', [], 'E_METHOD', { allow: 'GET, HEAD' });
