import { ApiError, notFound } from '../serve/api-error.js';
import type { Handler, RequestContext } from '../serve/context.js';
import { Query } from '../serve/query.js';
import type { Router } from '../serve/router.js';
import { toJsonBytes } from '../interfaces/json-chunks.js';

/** Interface 1's attributes as the pages read them; every one may be absent. */
export interface Attributes {
  readonly name?: string;
  readonly artistName?: string;
  readonly albumName?: string;
  readonly isrc?: string;
  readonly upc?: string;
  readonly artworkUrl?: string;
  readonly durationMs?: number;
  readonly releaseDate?: string;
  readonly genres?: readonly string[];
  readonly trackNumber?: number;
  readonly discNumber?: number;
  readonly trackCount?: number;
  readonly curatorName?: string;
  readonly description?: string;
}

export interface Relationship {
  readonly data: readonly Resource[];
  readonly meta?: { readonly limit: number; readonly offset: number; readonly total: number };
}

export interface Resource {
  readonly id: string;
  readonly type: 'song' | 'album' | 'artist' | 'playlist';
  readonly attributes: Attributes;
  readonly relationships?: Readonly<Record<string, Relationship>>;
}

export interface ListBody {
  readonly data: readonly Resource[];
  readonly meta: { readonly limit: number; readonly offset: number; readonly total: number };
}

/**
 * Interface 1 called in process: the pages read the same documents a JSON client gets (stored
 * views included), through the same routes, parameters and errors, with no HTTP in between.
 */
export class V1Client {
  constructor(
    private readonly router: Router<Handler>,
    readonly prefix: string,
  ) {}

  /** The body of `GET {prefix}{path}?{search}` as plain JSON values; its ApiError when it fails. */
  get<T>(ctx: RequestContext, path: string, search = ''): T {
    const match = this.router.match(`${this.prefix}${path}`);
    if (!match || match.style !== 'v1') throw notFound('No such endpoint');
    const result = match.handler({ cat: ctx.cat, params: match.params, query: new Query(search), requestId: ctx.requestId });
    return JSON.parse(toJsonBytes(result).toString('utf8')) as T;
  }

  /** As get, or the 404's message when the API answers 404 (an unknown id, no match). */
  find<T>(ctx: RequestContext, path: string, search = ''): T | { readonly missing: string } {
    try {
      return this.get<T>(ctx, path, search);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return { missing: err.message };
      throw err;
    }
  }
}

/** A path segment for an id: escaped, but a catalog id's colons kept readable. */
export const segment = (id: string): string => encodeURIComponent(id).replaceAll('%3A', ':');
