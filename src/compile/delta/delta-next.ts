import type { Catalog } from '../../catalog/catalog.js';
import { VIEW_TYPES, viewBytes, type ViewInterface, type ViewType } from '../../catalog/views.js';
import { RELATION_TARGETS } from './identity.js';
import { COMPILED_TYPES, type CompiledType, type NextNumbering } from './next-numbering.js';

/** Relationship lists a compile of the candidates makes whole for them (genre and station lists are not). */
export const COMPILED_RELATIONS = Object.keys(RELATION_TARGETS).filter((name) => (COMPILED_TYPES as readonly string[]).includes(name.slice(0, name.indexOf('.'))));

/**
 * The catalog as it will be served once the delta is in, for the compiled types (next-numbering.ts):
 * a candidate's record and lists come from the candidates' compile (`mini`), everything else from
 * the snapshot in service (`prev`), all in global ordinals.
 */
export class DeltaNext {
  private readonly miniOrdinal: Record<CompiledType, Map<number, number>>;
  /** Per compiled type, the candidates the delta holds (new or differing), global ascending, with their `mini` ordinals. */
  readonly held: Record<CompiledType, { global: Uint32Array; mini: Uint32Array }>;

  constructor(
    readonly prev: Catalog,
    readonly mini: Catalog,
    readonly numbering: NextNumbering,
  ) {
    this.miniOrdinal = {} as Record<CompiledType, Map<number, number>>;
    for (const type of COMPILED_TYPES) this.miniOrdinal[type] = new Map(numbering[type].candidates.map((m) => [numbering[type].toGlobal[m], m]));
    this.held = {} as DeltaNext['held'];
    for (const type of COMPILED_TYPES) {
      const pairs = numbering[type].candidates.filter((m) => numbering[type].isNew[m] || this.differs(type, m)).map((m) => [numbering[type].toGlobal[m], m]);
      pairs.sort((a, b) => a[0] - b[0]);
      this.held[type] = { global: Uint32Array.from(pairs, (p) => p[0]), mini: Uint32Array.from(pairs, (p) => p[1]) };
    }
  }

  /** The `mini` ordinal of a candidate, or -1 for a resource served as `prev` serves it. */
  miniOf(type: CompiledType, g: number): number {
    return this.miniOrdinal[type].get(g) ?? -1;
  }

  record<T = Record<string, unknown>>(type: CompiledType, g: number): T {
    const m = this.miniOf(type, g);
    return m >= 0 ? this.mini.records(type).get<T>(m) : this.prev.records(type).get<T>(g);
  }

  /** A compiled relation's list of `g`, in global ordinals. */
  list(name: string, g: number): ArrayLike<number> {
    const source = name.slice(0, name.indexOf('.')) as CompiledType;
    const m = this.miniOf(source, g);
    if (m < 0) return this.prev.hasRelation(name) ? this.prev.relation(name).targetsOf(g) : [];
    return this.miniList(name, m);
  }

  /** A compiled relation's list of `mini` ordinal `m`, in global ordinals. */
  miniList(name: string, m: number): number[] {
    if (!this.mini.hasRelation(name)) return [];
    const toGlobal = this.numbering[RELATION_TARGETS[name] as CompiledType].toGlobal;
    return Array.from(this.mini.relation(name).targetsOf(m), (t) => toGlobal[t]);
  }

  /** Whether a served candidate's record, a view or a list differs from what `prev` serves. */
  private differs(type: CompiledType, m: number): boolean {
    const g = this.numbering[type].toGlobal[m];
    if (JSON.stringify(this.prev.records(type).get(g)) !== JSON.stringify(this.mini.records(type).get(m))) return true;
    if ((VIEW_TYPES as readonly string[]).includes(type) && this.mini.views) {
      for (const iface of ['v1', 'om'] as ViewInterface[]) {
        const before = this.prev.views?.get(iface, type as ViewType, g) ?? null;
        const after = this.mini.views.get(iface, type as ViewType, m);
        if (!before || !after || !viewBytes(before).equals(viewBytes(after))) return true;
      }
    }
    for (const name of COMPILED_RELATIONS) {
      if (!name.startsWith(`${type}.`)) continue;
      const after = this.miniList(name, m);
      const before = this.prev.hasRelation(name) ? this.prev.relation(name).targetsOf(g) : [];
      if (before.length !== after.length || after.some((t, i) => t !== before[i])) return true;
    }
    return false;
  }
}
