import type { Catalog } from '../catalog/catalog.js';
import type { Query } from './query.js';

/** What a handler gets: the snapshot in service, the path parameters and the query. */
export interface RequestContext {
  readonly cat: Catalog;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Query;
  readonly requestId: string;
}

/** A handler returns the JSON body of a 200, or throws an ApiError. */
export type Handler = (ctx: RequestContext) => unknown;
