import type { ExploreGroup } from '../../catalog/explore-feed.js';
import type { SegmentType } from '../../catalog/segments.js';
import { SHARD_KINDS } from '../../index-format/constants.js';
import type { ArrayTableWriter } from '../../index-format/tables/array-table.js';
import { newRecordPackr } from '../write/record-packr.js';
import type { DeltaContent } from './delta-content.js';
import type { DeltaNext } from './delta-next.js';
import type { DeltaPlan } from './delta-plan.js';
import type { NextGenre } from './genre-lists.js';
import { RELATION_TARGETS } from './identity.js';
import { COMPILED_TYPES, type CompiledType } from './next-numbering.js';
import { compareSortKeys, sortKeyOf, type SortableRecord } from './sort-order.js';
import type { NextStation } from './station-lists.js';

/** What compile-delta.ts worked out, for the writers. */
export interface FastParts {
  readonly next: DeltaNext;
  readonly plan: DeltaPlan;
  readonly genres: readonly NextGenre[];
  readonly stations: readonly NextStation[];
  readonly explore: readonly ExploreGroup[];
  readonly orders: ArrayTableWriter;
}

const isCompiled = (type: SegmentType): type is CompiledType => (COMPILED_TYPES as readonly string[]).includes(type);

/**
 * A delta's content from the compile of its candidates (compile-delta.ts): the compiled types'
 * records and lists as the catalog will serve them (delta-next.ts) in global ordinals, genres and
 * stations as worked out over the whole catalog; records packed afresh, with the segment's own
 * structures; no views (rendered over the written records, delta-views.ts).
 */
export function fastContent({ next, plan, genres, stations, explore, orders }: FastParts): DeltaContent {
  const packr = newRecordPackr();
  const record = (type: SegmentType, i: number): Record<string, unknown> => {
    if (isCompiled(type)) return next.record(type, plan[type].held[i]);
    if (type === 'genre') return genres[i].record as unknown as Record<string, unknown>;
    if (type === 'station') return stations[i].record as unknown as Record<string, unknown>;
    throw new Error(`a delta holds no ${type}`);
  };
  const popularity = compareSortKeys('popularity');
  return {
    plan,
    record,
    recordBytes: (type, i) => Buffer.from(packr.pack(record(type, i))),
    // Rendered once the records are written (delta-views.ts), as a full compile renders them.
    view: () => null,
    relations: Object.keys(RELATION_TARGETS).filter((name) => next.prev.hasRelation(name)),
    targets: (name, i) => {
      if (name === 'genre.songs') return genres[i].songs;
      if (name === 'station.tracks') return stations[i].tracks;
      const source = name.slice(0, name.indexOf('.')) as CompiledType;
      return next.list(name, plan[source].held[i]);
    },
    keyTables: [...new Set(next.prev.snapshot.manifest.shards.filter((s) => s.kind === SHARD_KINDS.keys && (s.segment ?? 0) === 0).map((s) => s.name))],
    explore,
    orders,
    byPopularity: (type) => {
      const keys = Array.from(plan[type].held, (_, i) => ({ i, key: sortKeyOf('popularity', record(type, i) as unknown as SortableRecord) }));
      return keys.sort((a, b) => popularity(a.key, b.key)).map((k) => k.i);
    },
    creditNames: (type, i) =>
      Array.from(next.list(type === 'song' ? 'song.artists' : 'album.artists', plan[type].held[i]), (a) => next.record<{ name: string }>('artist', a).name),
    structures: () => (packr as unknown as { structures: unknown[][] }).structures.map((s) => [...s]),
  };
}
