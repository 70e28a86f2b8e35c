import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../../catalog/catalog.js';
import { SEGMENT_TYPES, type SegmentType } from '../../catalog/segments.js';
import { VIEW_TYPES, viewBytes, viewTable, type ViewInterface, type ViewType } from '../../catalog/views.js';
import { compareLocalIds } from '../../catalog/local-id-order.js';
import { SEGMENT_HELD_TABLE, SEGMENT_ORDERS_TABLE, SEGMENT_REMOVED_TABLE, type ManifestShard } from '../../index-format/manifest.js';
import { SHARD_KINDS } from '../../index-format/constants.js';
import { ShardWriter } from '../../index-format/shards/shard-writer.js';
import { exploreGroups } from '../../catalog/explore-feed.js';
import { pack } from 'msgpackr';
import { ArrayTableWriter } from '../../index-format/tables/array-table.js';
import { KeyTableBuilder } from '../../index-format/tables/key-table.js';
import { RecordTableWriter } from '../../index-format/tables/record-table-writer.js';
import type { DeltaPlan } from './delta-plan.js';
import { orderPatches } from './order-patch.js';
import { keysOf, MULTI_VALUED_KEYS, RELATION_TARGETS } from './identity.js';

/**
 * Writes a delta segment's shards (docs/segments.md, format.md "Segments") into a staging
 * directory, each file named with the segment's prefix: the records and views of the resources
 * it holds (row i is its i-th held ordinal), their keys (values are global ordinals), their
 * relationship lists (targets in global ordinals), and the held and removed ordinals. Records
 * are `next`'s bytes as they are, read with `next`'s shared structures (the segment's).
 */
export interface DeltaShards {
  readonly entries: ManifestShard[];
  readonly bytes: number;
}

const TYPES = Object.keys(SEGMENT_TYPES) as SegmentType[];

export function writeDeltaShards(
  staging: string,
  prefix: string,
  segment: number,
  buildId: string,
  plan: DeltaPlan,
  prev: Catalog,
  next: Catalog,
): DeltaShards {
  const entries: ManifestShard[] = [];
  const add = (shard: { kind: ManifestShard['kind']; size: number; sha256: string }, name: string, file: string) =>
    entries.push({ file, kind: shard.kind, name, size: shard.size, sha256: shard.sha256, segment });
  const work = join(staging, `.${prefix}work`);
  mkdirSync(work);
  try {
    const records = (table: string, rows: (w: RecordTableWriter) => void) => {
      const writer = new RecordTableWriter(work, table, buildId, null);
      rows(writer);
      for (const shard of writer.finish()) {
        const file = `${prefix}${shard.path.slice(shard.path.lastIndexOf('/') + 1)}`;
        renameSync(shard.path, join(staging, file));
        add(shard, table, file);
      }
    };
    for (const type of TYPES) {
      const { heldFrom } = plan[type];
      if (heldFrom.length === 0) continue;
      const table = next.records(type);
      records(SEGMENT_TYPES[type], (w) => heldFrom.forEach((n) => w.addBytes(table.raw(n))));
      if (next.views && (VIEW_TYPES as readonly string[]).includes(type)) {
        for (const iface of ['v1', 'om'] as ViewInterface[]) {
          records(viewTable(iface, type as ViewType), (w) => heldFrom.forEach((n) => w.addBytes(viewBytes(next.views!.get(iface, type as ViewType, n)!))));
        }
      }
    }
    for (const name of keyTableNames(next)) {
      const shard = keyTable(name, plan, next);
      if (shard) add(shard.write(join(staging, `${prefix}${name}.keys`), buildId), name, `${prefix}${name}.keys`);
    }
    const relations = relationTable(plan, next);
    if (relations) add(relations.write(join(staging, `${prefix}relations.arr`), buildId), 'relations', `${prefix}relations.arr`);
    // The explore feed is small: every delta stores it whole, in global ordinals.
    const explore = new ShardWriter(join(staging, `${prefix}explore.blob`), SHARD_KINDS.blob, buildId);
    explore.section('groups', pack(exploreGroups(next).map((g) => ({ ...g, ordinals: g.ordinals.map((o) => plan[g.type as SegmentType].toGlobal[o]) }))));
    add(explore.finish(), 'explore', `${prefix}explore.blob`);
    const orders = orderPatches(prev, plan, next);
    add(orders.write(join(staging, `${prefix}${SEGMENT_ORDERS_TABLE}.arr`), buildId), SEGMENT_ORDERS_TABLE, `${prefix}${SEGMENT_ORDERS_TABLE}.arr`);
    for (const [name, part] of [
      [SEGMENT_HELD_TABLE, 'held'],
      [SEGMENT_REMOVED_TABLE, 'removed'],
    ] as const) {
      const writer = new ArrayTableWriter();
      for (const type of TYPES) writer.array(type, plan[type][part]);
      add(writer.write(join(staging, `${prefix}${name}.arr`), buildId), name, `${prefix}${name}.arr`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { entries, bytes: entries.reduce((sum, e) => sum + e.size, 0) };
}

function keyTableNames(cat: Catalog): string[] {
  return cat.snapshot.manifest.shards.filter((s) => s.kind === SHARD_KINDS.keys).map((s) => s.name);
}

/** The keys of the held resources of the table's type (multi-valued ones in local-id order), or null when it holds none. */
function keyTable(name: string, plan: DeltaPlan, next: Catalog): KeyTableBuilder | null {
  const type = name.slice(0, name.indexOf('.')) as SegmentType;
  const { held, heldFrom } = plan[type];
  if (held.length === 0) return null;
  const table = next.records(type);
  const rows = Array.from(held, (g, i) => ({ g, record: table.get<Record<string, unknown>>(heldFrom[i]) }));
  if (MULTI_VALUED_KEYS.has(name)) rows.sort((a, b) => compareLocalIds(String(a.record.id), String(b.record.id)));
  const builder = new KeyTableBuilder(name);
  for (const { g, record } of rows) for (const key of keysOf(name, record)) builder.add(key, g);
  return builder;
}

/** Every relationship list of the held sources, targets in global ordinals; null when nothing is held. */
function relationTable(plan: DeltaPlan, next: Catalog): ArrayTableWriter | null {
  const writer = new ArrayTableWriter();
  let any = false;
  for (const [name, target] of Object.entries(RELATION_TARGETS)) {
    if (!next.hasRelation(name)) continue;
    const source = name.slice(0, name.indexOf('.')) as SegmentType;
    const { heldFrom } = plan[source];
    if (heldFrom.length === 0) continue;
    const relation = next.relation(name);
    const toGlobal = plan[target].toGlobal;
    const offsets = new Uint32Array(heldFrom.length + 1);
    const targets: number[] = [];
    heldFrom.forEach((n, i) => {
      for (const t of relation.targetsOf(n)) targets.push(toGlobal[t]);
      offsets[i + 1] = targets.length;
    });
    writer.adjacency(name, offsets, Uint32Array.from(targets));
    any = true;
  }
  return any ? writer : null;
}
