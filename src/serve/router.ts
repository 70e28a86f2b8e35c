import { ApiError, badRequest } from './api-error.js';
import type { ErrorStyle } from './error-response.js';

export interface Match<H> {
  /** The pattern the route was added with (`/v1/song/:id`): a bounded label for metrics. */
  readonly pattern: string;
  readonly handler: H;
  readonly params: Record<string, string>;
  readonly style: ErrorStyle;
}

interface Route<H> {
  readonly pattern: string;
  readonly segments: readonly string[];
  /** The parameters: their segment's index and name. */
  readonly params: readonly { readonly at: number; readonly name: string }[];
  readonly handler: H;
  readonly style: ErrorStyle;
}

/** One level of the route tree: static children by segment, one parameter child, routes ending here. */
interface RouteNode<H> {
  readonly statics: Map<string, RouteNode<H>>;
  param: RouteNode<H> | null;
  route: Route<H> | null;
}

const newNode = <H>(): RouteNode<H> => ({ statics: new Map(), param: null, route: null });

/**
 * Path routing by segments (`/v1/song/:id`) over a tree. Static segments are tried before
 * parameters, earliest segment first, so `/v1/stations/popular` wins over
 * `/v1/stations/:type/:id`. Segments are percent-decoded; a malformed escape is a 400, never a
 * crash.
 */
export class Router<H> {
  private readonly root: RouteNode<H> = newNode();

  add(pattern: string, style: ErrorStyle, handler: H): this {
    const segments = split(pattern);
    let node = this.root;
    for (const s of segments) {
      if (s.startsWith(':')) node = node.param ??= newNode();
      else {
        let next = node.statics.get(s);
        if (!next) node.statics.set(s, (next = newNode()));
        node = next;
      }
    }
    const params = segments.flatMap((s, at) => (s.startsWith(':') ? [{ at, name: s.slice(1) }] : []));
    node.route = { pattern, segments, params, handler, style };
    return this;
  }

  /** The matching route, or null (404). */
  match(pathname: string): Match<H> | null {
    if (pathname.charCodeAt(0) !== 47 /* / */) return null;
    const raw = split(pathname);
    const route = find(this.root, raw, 0);
    if (!route) return null;
    const params: Record<string, string> = {};
    for (const p of route.params) params[p.name] = decodeSegment(raw[p.at], p.name);
    return { pattern: route.pattern, handler: route.handler, params, style: route.style };
  }
}

/** Depth-first, static child before the parameter child: the first hit is the most static route. */
function find<H>(node: RouteNode<H>, raw: readonly string[], i: number): Route<H> | null {
  if (i === raw.length) return node.route;
  const next = node.statics.get(raw[i]);
  if (next) {
    const hit = find(next, raw, i + 1);
    if (hit) return hit;
  }
  return node.param ? find(node.param, raw, i + 1) : null;
}

/** "/v1/song/1/" -> ["v1", "song", "1"]; "/v1/" -> ["v1", ""] (the prefix root is a route). */
function split(path: string): string[] {
  const parts: string[] = [];
  let from = 1;
  for (let at = path.indexOf('/', 1); at >= 0; at = path.indexOf('/', from)) {
    parts.push(path.slice(from, at));
    from = at + 1;
  }
  parts.push(path.slice(from));
  if (parts.length > 2 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

function decodeSegment(segment: string, name: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`${name} is not valid percent-encoded UTF-8`, name, segment);
  }
}

export const methodNotAllowed = (): ApiError =>
  new ApiError(405, 'Method not allowed; this service answers GET and HEAD', [], 'E_METHOD', { allow: 'GET, HEAD' });
