import type { Catalog } from '../../catalog/catalog.js';
import { sameOrdinals } from '../../index-format/u32.js';
import { RELATION_TARGETS } from './identity.js';
import { COMPILED_TYPES, type CompiledType, type NextNumbering } from './next-numbering.js';

/** Relationship lists a compile of the candidates makes for them (genre and station lists are worked out apart). */
export const COMPILED_RELATIONS = Object.keys(RELATION_TARGETS).filter((name) =>
  (COMPILED_TYPES as readonly string[]).includes(name.slice(0, name.indexOf('.'))),
);

/**
 * The catalog as it will be served once the delta is in, for the compiled types (next-numbering.ts):
 * a candidate's record and lists come from the candidates' compile (`mini`), or from what the
 * delta compile worked out instead (`patch`: an artist's lists and derived genres, a playlist's
 * tracks, made from the lists in service), everything else from the snapshot in service (`prev`),
 * all in global ordinals. Records and lists decide what the delta holds (`heldOf`); views are
 * rendered from them once the delta's records are written (delta-views.ts).
 */
export class DeltaNext {
  private readonly miniOrdinal: Record<CompiledType, Map<number, number>>;
  private readonly records = new Map<string, Record<string, unknown>>();
  private readonly lists = new Map<string, ArrayLike<number>>();
  private readonly held = new Map<CompiledType, { global: Uint32Array; mini: Uint32Array }>();

  constructor(
    readonly prev: Catalog,
    readonly mini: Catalog,
    readonly numbering: NextNumbering,
  ) {
    this.miniOrdinal = {} as Record<CompiledType, Map<number, number>>;
    for (const type of COMPILED_TYPES) this.miniOrdinal[type] = new Map(numbering[type].candidates.map((m) => [numbering[type].toGlobal[m], m]));
  }

  /** The `mini` ordinal of a candidate, or -1 for a resource served as `prev` serves it. */
  miniOf(type: CompiledType, g: number): number {
    return this.miniOrdinal[type].get(g) ?? -1;
  }

  /** The candidates of a type, global ordinals ascending. */
  candidates(type: CompiledType): number[] {
    return [...this.miniOrdinal[type].keys()].sort((a, b) => a - b);
  }

  /** Serves `record` for candidate `g` instead of the compiled one (before the type's heldOf is asked). */
  patchRecord(type: CompiledType, g: number, record: Record<string, unknown>): void {
    this.records.set(`${type}:${g}`, record);
  }

  /** Serves `list` as candidate `g`'s list `name` instead of the compiled one. */
  patchList(name: string, g: number, list: ArrayLike<number>): void {
    this.lists.set(`${name}:${g}`, list);
  }

  record<T = Record<string, unknown>>(type: CompiledType, g: number): T {
    const patched = this.records.get(`${type}:${g}`);
    if (patched) return patched as T;
    const m = this.miniOf(type, g);
    return m >= 0 ? this.mini.records(type).get<T>(m) : this.prev.records(type).get<T>(g);
  }

  /** A compiled relation's list of `g`, in global ordinals. */
  list(name: string, g: number): ArrayLike<number> {
    const patched = this.lists.get(`${name}:${g}`);
    if (patched) return patched;
    const source = name.slice(0, name.indexOf('.')) as CompiledType;
    const m = this.miniOf(source, g);
    if (m < 0) return this.prev.hasRelation(name) ? this.prev.relation(name).targetsOf(g) : [];
    return this.miniList(name, m);
  }

  /** A compiled relation's list of `mini` ordinal `m`, as the candidates' compile made it, in global ordinals. */
  miniList(name: string, m: number): number[] {
    if (!this.mini.hasRelation(name)) return [];
    const toGlobal = this.numbering[RELATION_TARGETS[name] as CompiledType].toGlobal;
    return Array.from(this.mini.relation(name).targetsOf(m), (t) => toGlobal[t]);
  }

  /** The candidates of a type the delta holds (new, or their record or a list differs), global ascending, with their `mini` ordinals. */
  heldOf(type: CompiledType): { global: Uint32Array; mini: Uint32Array } {
    let held = this.held.get(type);
    if (!held) {
      const { candidates, toGlobal, isNew } = this.numbering[type];
      const pairs = candidates.filter((m) => isNew[m] || this.differs(type, toGlobal[m])).map((m) => [toGlobal[m], m]);
      pairs.sort((a, b) => a[0] - b[0]);
      this.held.set(type, (held = { global: Uint32Array.from(pairs, (p) => p[0]), mini: Uint32Array.from(pairs, (p) => p[1]) }));
    }
    return held;
  }

  /**
   * Whether a served candidate's record or a list differs from what `prev` serves. A stored view
   * is rendered from the record and the ids it names, so it differs only when they do.
   */
  private differs(type: CompiledType, g: number): boolean {
    if (JSON.stringify(this.prev.records(type).get(g)) !== JSON.stringify(this.record(type, g))) return true;
    for (const name of COMPILED_RELATIONS) {
      if (!name.startsWith(`${type}.`)) continue;
      const before = this.prev.hasRelation(name) ? this.prev.relation(name).targetsOf(g) : [];
      if (!sameOrdinals(this.list(name, g), before)) return true;
    }
    return false;
  }
}
