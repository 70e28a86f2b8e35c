import { RELATIONS, type ResourceType } from '../../catalog/catalog.js';
import type { AttributeSet } from './attributes.js';

// What an interface-1 request may ask for and how a resource is rendered: the contract between
// the server's request parsing and the renderer (render.ts), which the compiler also uses to
// write the default views. No parsing here and no HTTP: those stay in the server.

/** Included relationships below a resource: relationship name -> what to include below it. */
export interface IncludeNode {
  readonly children: Map<string, IncludeNode>;
}

export const emptyInclude = (): IncludeNode => ({ children: new Map() });

/** What a resource is rendered with: includes, their limits and sorts, fields, language. */
export interface RenderSpec {
  readonly include: IncludeNode;
  /** `album:tracks` -> limit. */
  readonly limits: ReadonlyMap<string, number>;
  /** `album:tracks` -> sort value. */
  readonly sorts: ReadonlyMap<string, string>;
  /** type -> attribute names to keep; a type not in the map keeps all. */
  readonly fields: ReadonlyMap<ResourceType, ReadonlySet<string>>;
  readonly lang: string | undefined;
  readonly attributes: AttributeSet;
}

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
export const MAX_INCLUDE_DEPTH = 3;

const BASE_SORTS = ['name', '-name', 'dateAdded', '-dateAdded'] as const;
const DATED_SORTS = [...BASE_SORTS, 'releaseDate', '-releaseDate'] as const;

/** The sort values a list of this type accepts (song and album lists also sort by release date). */
export function sortsFor(type: ResourceType): readonly string[] {
  return type === 'song' || type === 'album' ? DATED_SORTS : BASE_SORTS;
}

export function relationsOf(type: ResourceType): readonly string[] {
  return Object.keys(RELATIONS[type]);
}
