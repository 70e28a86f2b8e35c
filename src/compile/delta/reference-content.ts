import type { Catalog } from '../../catalog/catalog.js';
import { exploreGroups } from '../../catalog/explore-feed.js';
import { SHARD_KINDS } from '../../index-format/constants.js';
import { viewBytes } from '../../catalog/views.js';
import type { SegmentType } from '../../catalog/segments.js';
import type { DeltaContent } from './delta-content.js';
import type { DeltaPlan } from './delta-plan.js';
import { RELATION_TARGETS } from './identity.js';
import { orderPatches } from './order-patch.js';

/**
 * A delta's content read from `next`, a full compile of the changed raw catalog (the reference,
 * publish-delta.ts): records are `next`'s bytes as they are, packed with `next`'s structures.
 */
export function referenceContent(prev: Catalog, plan: DeltaPlan, next: Catalog): DeltaContent {
  const from = (type: SegmentType, i: number) => plan[type].heldFrom[i];
  return {
    plan,
    recordBytes: (type, i) => next.records(type).raw(from(type, i)),
    record: (type, i) => next.records(type).get<Record<string, unknown>>(from(type, i)),
    view: (iface, type, i) => {
      const view = next.views?.get(iface, type, from(type, i));
      return view ? viewBytes(view) : null;
    },
    relations: Object.keys(RELATION_TARGETS).filter((name) => next.hasRelation(name)),
    targets: (name, i) => {
      const source = name.slice(0, name.indexOf('.')) as SegmentType;
      const toGlobal = plan[RELATION_TARGETS[name]].toGlobal;
      return Array.from(next.relation(name).targetsOf(from(source, i)), (t) => toGlobal[t]);
    },
    keyTables: next.snapshot.manifest.shards.filter((s) => s.kind === SHARD_KINDS.keys).map((s) => s.name),
    explore: exploreGroups(next).map((g) => ({ ...g, ordinals: g.ordinals.map((o) => plan[g.type as SegmentType].toGlobal[o]) })),
    orders: orderPatches(prev, plan, next),
    byPopularity: (type) => {
      const rowOf = new Int32Array(next.records(type).count).fill(-1);
      plan[type].heldFrom.forEach((n, row) => {
        rowOf[n] = row;
      });
      const popularity = next.order(type, 'popularity');
      return Array.from(popularity.slice(0, popularity.length))
        .filter((n) => rowOf[n] >= 0)
        .map((n) => rowOf[n]);
    },
    creditNames: (type, i) =>
      Array.from(next.relation(type === 'song' ? 'song.artists' : 'album.artists').targetsOf(from(type, i)), (a) => next.artist(a).name),
    structures: () => next.snapshot.manifest.structures as unknown[][],
  };
}
