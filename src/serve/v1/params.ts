import { RELATION_TARGET, RELATIONS, type ResourceType } from '../../catalog/catalog.js';
import { ATTRIBUTES, type AttributeSet } from '../../interfaces/v1/attributes.js';
import {
  DEFAULT_LIMIT,
  emptyInclude,
  MAX_INCLUDE_DEPTH,
  MAX_LIMIT,
  relationsOf,
  sortsFor,
  type IncludeNode,
  type RenderSpec,
} from '../../interfaces/v1/spec.js';
import { commaList, type Query } from '../query.js';

/**
 * Include trees already parsed, by root type, depth and raw value: a client asks for the same few
 * includes again and again. Only valid values are kept (an invalid one is parsed again, to report
 * its problems), and the trees are never changed after parsing, so requests share them. Keyed by
 * maps in turn, so that a request looks its value up without building a key string.
 */
const parsedIncludes = new Map<string, Map<number, Map<string, IncludeNode>>>();
let parsedIncludesKept = 0;
const PARSED_INCLUDES_KEPT = 256;

/** What a request without `include`, `limit[...]`, `sort[...]` or `fields[...]` gets: shared, never changed. */
const NO_INCLUDE: IncludeNode = emptyInclude();
const NO_LIMITS: ReadonlyMap<string, number> = new Map();
const NO_SORTS: ReadonlyMap<string, string> = new Map();
const NO_FIELDS: ReadonlyMap<ResourceType, ReadonlySet<string>> = new Map();

/** `include`: comma list of dot paths, at most three levels deep; a path implies its ancestors. */
export function parseInclude(q: Query, root: ResourceType, maxDepth = MAX_INCLUDE_DEPTH): IncludeNode {
  const raw = q.get('include');
  if (raw === undefined) return NO_INCLUDE;
  const known = parsedIncludes.get(root)?.get(maxDepth)?.get(raw);
  if (known) return known;
  const problemsBefore = q.problems.length;
  const tree = includeTree(q, root, maxDepth, raw);
  if (q.problems.length === problemsBefore && raw.length <= 256) {
    if (parsedIncludesKept >= PARSED_INCLUDES_KEPT) {
      parsedIncludes.clear();
      parsedIncludesKept = 0;
    }
    let byDepth = parsedIncludes.get(root);
    if (!byDepth) parsedIncludes.set(root, (byDepth = new Map()));
    let byRaw = byDepth.get(maxDepth);
    if (!byRaw) byDepth.set(maxDepth, (byRaw = new Map()));
    byRaw.set(raw, tree);
    parsedIncludesKept++;
  }
  return tree;
}

function includeTree(q: Query, root: ResourceType, maxDepth: number, raw: string): IncludeNode {
  const tree = emptyInclude();
  for (const path of commaList(raw)) {
    const parts = path.split('.');
    if (parts.length > maxDepth) {
      q.problem('include', path, `${path} is ${parts.length} levels deep; includes go at most ${maxDepth} level${maxDepth === 1 ? '' : 's'} deep`);
      continue;
    }
    let type: ResourceType = root;
    let node = tree;
    for (const part of parts) {
      if (!relationsOf(type).includes(part)) {
        q.problem('include', path, `${type} has no relationship ${JSON.stringify(part)} (it has ${relationsOf(type).join(', ')})`);
        break;
      }
      type = RELATION_TARGET[part];
      let child = node.children.get(part);
      if (!child) node.children.set(part, (child = emptyInclude()));
      node = child;
    }
  }
  return tree;
}

/** `limit[type:rel]` and `sort[type:rel]` for included relationships. */
export function parseRelationshipOptions(q: Query): { limits: ReadonlyMap<string, number>; sorts: ReadonlyMap<string, string> } {
  let limits: Map<string, number> | null = null;
  let sorts: Map<string, string> | null = null;
  for (const name of q.names()) {
    if (!name.endsWith(']')) continue;
    const m = /^(limit|sort)\[(.*)\]$/.exec(name);
    if (!m) continue;
    const [, kind, key] = m;
    const [type, rel, extra] = key.split(':');
    const known = extra === undefined && type in RELATIONS && rel !== undefined && relationsOf(type as ResourceType).includes(rel);
    if (!known) {
      q.problem(name, q.get(name), `${name} names no relationship; use ${kind}[<type>:<relationship>], e.g. ${kind}[album:tracks]`);
      continue;
    }
    const raw = q.get(name)!;
    if (kind === 'limit') {
      const n = q.intValue(name, raw, 1, MAX_LIMIT);
      if (n !== undefined) (limits ??= new Map()).set(key, n);
    } else {
      const allowed = sortsFor(RELATION_TARGET[rel]);
      if (allowed.includes(raw)) (sorts ??= new Map()).set(key, raw);
      else q.problem(name, raw, `${name} must be one of ${allowed.join(', ')}`);
    }
  }
  return { limits: limits ?? NO_LIMITS, sorts: sorts ?? NO_SORTS };
}

/** `fields[<type>]` for the types an endpoint accepts; an unknown type or field is a 400. */
export function parseFields(q: Query, accepted: readonly ResourceType[], attributes: AttributeSet): ReadonlyMap<ResourceType, ReadonlySet<string>> {
  let fields: Map<ResourceType, Set<string>> | null = null;
  for (const name of q.names()) {
    if (!name.endsWith(']')) continue;
    const m = /^fields\[(.*)\]$/.exec(name);
    if (!m) continue;
    const type = m[1] as ResourceType;
    const raw = q.get(name) ?? '';
    if (!accepted.includes(type)) {
      q.problem(name, raw, `${name} is not accepted here (accepted: ${accepted.map((t) => `fields[${t}]`).join(', ')})`);
      continue;
    }
    const known = ATTRIBUTES[attributes][type];
    const wanted = new Set<string>();
    for (const field of commaList(raw)) {
      if (known.includes(field)) wanted.add(field);
      else q.problem(name, field, `${type} has no field ${JSON.stringify(field)} (fields: ${known.join(', ')})`);
    }
    (fields ??= new Map()).set(type, wanted);
  }
  return fields ?? NO_FIELDS;
}

/** `lang`: a BCP 47 tag, canonicalised. */
export function parseLang(q: Query): string | undefined {
  const raw = q.get('lang');
  if (raw === undefined || raw.trim() === '') return undefined;
  try {
    const [tag] = Intl.getCanonicalLocales(raw.trim());
    if (tag) return tag;
  } catch {
    // reported below
  }
  q.problem('lang', raw, 'lang must be a BCP 47 language tag, e.g. en-US');
  return undefined;
}

/** The include group of an endpoint, validated (problems are collected on the query). */
export function parseRenderSpec(q: Query, root: ResourceType, fieldTypes: readonly ResourceType[], attributes: AttributeSet = 'full'): RenderSpec {
  const include = parseInclude(q, root);
  const { limits, sorts } = parseRelationshipOptions(q);
  return { include, limits, sorts, fields: parseFields(q, fieldTypes, attributes), lang: parseLang(q), attributes };
}

/** A spec with no include: for list endpoints of related resources (`/album/{id}/rel/tracks`). */
export function parseFlatSpec(q: Query, fieldTypes: readonly ResourceType[]): RenderSpec {
  return { include: NO_INCLUDE, limits: NO_LIMITS, sorts: NO_SORTS, fields: parseFields(q, fieldTypes, 'full'), lang: parseLang(q), attributes: 'full' };
}

export interface Page {
  readonly limit: number;
  readonly offset: number;
  readonly sort: string;
}

/** `limit` (1..100, default 25), `offset` (>= 0), `sort` (per type, with a default). */
export function parsePage(q: Query, type: ResourceType, defaultSort: string): Page {
  const limit = q.int('limit', 1, MAX_LIMIT, DEFAULT_LIMIT);
  const offset = q.int('offset', 0, Number.MAX_SAFE_INTEGER, 0);
  // The default may be an order no client can name (album track order, playlist position).
  const sort = q.oneOf<string>('sort', sortsFor(type), defaultSort);
  return { limit, offset, sort };
}
