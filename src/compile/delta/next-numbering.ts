import type { Catalog } from '../../catalog/catalog.js';
import type { Closure } from './closure.js';
import { identityOf } from './identity.js';

/** The types a compile of the candidates (compile-delta.ts) makes records of; genres and stations are worked out over the whole catalog. */
export const COMPILED_TYPES = ['song', 'album', 'artist', 'playlist', 'file', 'lyrics'] as const;
export type CompiledType = (typeof COMPILED_TYPES)[number];

export interface TypeNumbering {
  /** Ordinal in the compile of the candidates -> global ordinal (context resources keep theirs). */
  readonly toGlobal: Uint32Array;
  /** Ordinals (in the candidates' compile) of the candidates, ascending. */
  readonly candidates: number[];
  /** Per candidate ordinal, 1 when the snapshot in service has no resource of its identity. */
  readonly isNew: Uint8Array;
  /** Global ordinals the snapshot in service serves that the candidates' compile no longer has, ascending. */
  readonly removed: number[];
}

/** The global ordinal of a resource of the candidates' compile that is in no list a delta holds. */
export const NO_ORDINAL = 0xffffffff;

export type NextNumbering = Record<CompiledType, TypeNumbering>;

/**
 * Global ordinals for the resources of `mini` (the compile of the closure's rows), as planDelta
 * gives a full compile's: a resource the snapshot in service serves keeps its ordinal, a new one
 * is numbered after every ordinal there is, in `mini`'s order (the raw rows' order, as a full
 * compile's). Files and lyrics are candidates when their song is; identity as identity.ts says.
 */
export function numberNext(prev: Catalog, mini: Catalog, closure: Closure): NextNumbering {
  const songs = numberType(prev, mini, 'song', closure.candidates.song, prevByIdentity(prev, 'song', closure.candidates.song));
  const out = { song: songs } as NextNumbering;
  for (const type of ['album', 'artist', 'playlist'] as const)
    out[type] = numberType(prev, mini, type, closure.candidates[type], prevByIdentity(prev, type, closure.candidates[type]));
  for (const [type, list] of [
    ['file', 'song.files'],
    ['lyrics', 'song.lyrics'],
  ] as const) {
    const served = prevEdges(prev, list, type, closure.candidates.song);
    const ofCandidate = (m: number) => closure.candidates.song.has(String(mini.records(type).get<{ songId: string }>(m).songId));
    out[type] = numberType(prev, mini, type, ofCandidate, served);
  }
  return out;
}

/** The snapshot in service's resources of the given ids, identity -> global ordinal. */
function prevByIdentity(prev: Catalog, type: 'song' | 'album' | 'artist' | 'playlist', ids: ReadonlySet<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const id of ids) {
    const g = prev.resolve(type, id);
    if (g >= 0) out.set(id, g);
  }
  return out;
}

/** The files or lyrics of the given songs in the snapshot in service, identity -> global ordinal. */
function prevEdges(prev: Catalog, list: string, type: 'file' | 'lyrics', songs: ReadonlySet<string>): Map<string, number> {
  const out = new Map<string, number>();
  if (!prev.hasRelation(list)) return out;
  const relation = prev.relation(list);
  const records = prev.records(type);
  for (const id of songs) {
    const s = prev.resolve('song', id);
    if (s < 0) continue;
    for (const g of relation.targetsOf(s)) out.set(identityOf(type, records.get(g)), g);
  }
  return out;
}

function numberType(
  prev: Catalog,
  mini: Catalog,
  type: CompiledType,
  candidate: ReadonlySet<string> | ((m: number) => boolean),
  servedCandidates: Map<string, number>,
): TypeNumbering {
  const records = mini.records(type);
  const isCandidate = typeof candidate === 'function' ? candidate : (m: number) => candidate.has(identityOf(type, records.get(m)));
  const toGlobal = new Uint32Array(records.count);
  const isNew = new Uint8Array(records.count);
  const candidates: number[] = [];
  const left = new Map(servedCandidates);
  const edges = type === 'file' || type === 'lyrics';
  let fresh = prev.records(type).count;
  for (let m = 0; m < records.count; m++) {
    const identity = identityOf(type, records.get(m));
    if (edges && !isCandidate(m)) {
      // A context song's files and lyrics: nothing refers to them.
      toGlobal[m] = NO_ORDINAL;
      continue;
    }
    let g = servedCandidates.get(identity) ?? (edges ? -1 : prev.resolve(type, identity));
    if (g < 0) {
      g = fresh++;
      isNew[m] = 1;
    }
    toGlobal[m] = g;
    left.delete(identity);
    if (isNew[m] || isCandidate(m)) candidates.push(m);
  }
  return { toGlobal, candidates, isNew, removed: [...left.values()].sort((a, b) => a - b) };
}
