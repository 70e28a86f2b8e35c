import type { Snapshot } from '../index-format/index.js';
import { SearchIndex } from '../index-format/search/search-index.js';
import { hideInIndex } from './hide-in-search.js';
import { SEGMENT_ORDERS_TABLE } from '../index-format/manifest.js';
import type { KeyLookup, OrdinalColumn, Relation } from './live-lists.js';
import { SegmentedOrder } from './segment-orders.js';
import { SegmentedKeys, SegmentedRelation } from './segment-tables.js';
import { SEGMENT_TYPES, type SegmentMap, type SegmentType } from './segments.js';

/**
 * The keys, relations and orders of a segmented snapshot, read across its segments (as
 * live-parts.ts reads a snapshot under a deletes set): each made on first use from every
 * segment's table of that name; the catalog keeps them.
 */
export class SegmentedParts {
  constructor(
    private readonly snapshot: Snapshot,
    readonly segments: SegmentMap,
    /** The local id of a resource (multi-valued keys merge in local-id order). */
    private readonly idOf: (type: SegmentType, ordinal: number) => string,
  ) {}

  keys(name: string): KeyLookup {
    const { snapshot, segments } = this;
    const tables = Array.from({ length: segments.count }, (_, s) => (s === 0 || snapshot.hasKeys(name, s) ? snapshot.keys(name, s) : null));
    const type = typeOf(name);
    return new SegmentedKeys(tables, segments, type, (ordinal) => this.idOf(type, ordinal));
  }

  relation(name: string): Relation {
    const { snapshot, segments } = this;
    const lists = Array.from({ length: segments.count }, (_, s) => {
      const arrays = s === 0 || snapshot.hasArrays('relations', s) ? snapshot.arrays('relations', s) : null;
      return arrays?.has(`${name}.offsets`) ? arrays.adjacency(name) : null;
    });
    return new SegmentedRelation(lists, segments, typeOf(name));
  }

  /** The base's order less what the deltas hold or took out, with the newest delta's patch inserted (segment-orders.ts). */
  order(type: SegmentType, sort: string): SegmentedOrder {
    // By type, then sort: a search reads the popularity order once per hit, and a key joined
    // anew each time cost more than the read (a new string is hashed on every lookup).
    let ofType = this.orders.get(type);
    if (!ofType) this.orders.set(type, (ofType = new Map()));
    let order = ofType.get(sort);
    if (!order) {
      const key = `${type}.${sort}`;
      const base = this.snapshot.arrays(`${SEGMENT_TYPES[type]}.orders`);
      const patch = this.snapshot.arrays(SEGMENT_ORDERS_TABLE, this.segments.count - 1);
      const rank = base.column(`rank.${sort}`);
      order = new SegmentedOrder(
        base.column(`order.${sort}`),
        rank.slice(0, rank.length),
        this.segments.stale(type),
        copied(patch.column(`${key}.ordinals`)),
        copied(patch.column(`${key}.at`)),
      );
      if (sort === 'popularity') order.materialize();
      ofType.set(sort, order);
    }
    return order;
  }

  private readonly orders = new Map<SegmentType, Map<string, SegmentedOrder>>();

  /**
   * Every segment's search index of a type, the documents a later segment replaced or took out
   * hidden, each with the merged popularity rank of its documents (`popularity`: Catalog.rank).
   */
  searchParts(type: 'song' | 'album' | 'artist' | 'playlist', popularity: Uint32Array): SegmentSearch[] {
    let parts = this.search.get(type);
    if (!parts) {
      const { snapshot, segments } = this;
      const name = `search.${SEGMENT_TYPES[type]}`;
      parts = [];
      for (let s = 0; s < segments.count; s++) {
        if (!snapshot.hasBlob(name, s)) continue;
        const held = s === 0 ? null : segments.held(type, s);
        const pages = s === 0 && snapshot.hasBlob(`${name}.first-pages`) ? snapshot.blob(`${name}.first-pages`) : null;
        const index = new SearchIndex(snapshot.blob(name, s), pages);
        const toGlobal = held ? (row: number) => held[row] : (ordinal: number) => ordinal;
        hideInIndex(index, (stored) => !segments.answers(type, toGlobal(stored), s));
        const localRank = held ? rowRanks(index, held.length) : this.baseRanks(type);
        parts.push({
          segment: s,
          index,
          global: (rank) => popularity[toGlobal(index.ordinal(rank))],
          ordinal: (rank) => toGlobal(index.ordinal(rank)),
          rank: held ? (ordinal) => localRank(segments.localOf(type, s, ordinal)) : localRank,
        });
      }
      this.search.set(type, parts);
    }
    return parts;
  }

  private readonly search = new Map<string, SegmentSearch[]>();

  /** A base ordinal's rank in the base's search index: its base popularity rank (the index's documents are in that order). */
  private baseRanks(type: SegmentType): (ordinal: number) => number {
    const column = this.snapshot.arrays(`${SEGMENT_TYPES[type]}.orders`).column('rank.popularity');
    return (ordinal) => column.get(ordinal);
  }
}

/** A delta index's rank of each of its rows (the inverse of its ordinals section). */
function rowRanks(index: SearchIndex, rows: number): (row: number) => number {
  const ordinals = index.u32('ordinals');
  const ranks = new Int32Array(rows).fill(-1);
  for (let r = 0; r < ordinals.length; r++) ranks[ordinals[r]] = r;
  return (row) => ranks[row];
}

/** One segment's search index over a segmented snapshot (search/segmented-search.ts runs the tiers over them). */
export interface SegmentSearch {
  /** The segment whose index it is. */
  readonly segment: number;
  readonly index: SearchIndex;
  /** The merged popularity rank of a document of the index. */
  global(rank: number): number;
  /** The global ordinal of a document of the index. */
  ordinal(rank: number): number;
  /** The rank in the index of a resource this segment holds (by global ordinal). */
  rank(ordinal: number): number;
}

/** `song.isrc` -> song. */
function typeOf(name: string): SegmentType {
  return name.slice(0, name.indexOf('.')) as SegmentType;
}

function copied(column: OrdinalColumn): Uint32Array {
  return Uint32Array.from(column.slice(0, column.length));
}
