import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SEGMENT_TYPES, type SegmentType } from '../../catalog/segments.js';
import { VIEW_TYPES, viewTable, type ViewInterface, type ViewType } from '../../catalog/views.js';
import { compareLocalIds } from '../../catalog/local-id-order.js';
import { SEGMENT_HELD_TABLE, SEGMENT_ORDERS_TABLE, SEGMENT_REMOVED_TABLE, type ManifestShard } from '../../index-format/manifest.js';
import { SHARD_KINDS } from '../../index-format/constants.js';
import { ShardWriter } from '../../index-format/shards/shard-writer.js';
import { pack } from 'msgpackr';
import { ArrayTableWriter } from '../../index-format/tables/array-table.js';
import { KeyTableBuilder } from '../../index-format/tables/key-table.js';
import { RecordTableWriter } from '../../index-format/tables/record-table-writer.js';
import type { DeltaContent } from './delta-content.js';
import { keysOf, MULTI_VALUED_KEYS, RELATION_TARGETS } from './identity.js';

/**
 * Writes a delta segment's shards (docs/segments.md, format.md "Segments") into a staging
 * directory, each file named with the segment's prefix: the records and views of the resources
 * it holds (row i is its i-th held ordinal), their keys (values are global ordinals), their
 * relationship lists (targets in global ordinals), and the held and removed ordinals, all as
 * `content` has them (delta-content.ts).
 */
export interface DeltaShards {
  readonly entries: ManifestShard[];
  readonly bytes: number;
}

const TYPES = Object.keys(SEGMENT_TYPES) as SegmentType[];

export function writeDeltaShards(staging: string, prefix: string, segment: number, buildId: string, content: DeltaContent): DeltaShards {
  const { plan } = content;
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
      const count = plan[type].held.length;
      if (count === 0) continue;
      records(SEGMENT_TYPES[type], (w) => eachHeld(count, (i) => w.addBytes(content.recordBytes(type, i))));
      if (!(VIEW_TYPES as readonly string[]).includes(type) || content.view('v1', type as ViewType, 0) === null) continue;
      for (const iface of ['v1', 'om'] as ViewInterface[]) {
        records(viewTable(iface, type as ViewType), (w) => eachHeld(count, (i) => w.addBytes(content.view(iface, type as ViewType, i)!)));
      }
    }
    for (const name of content.keyTables) {
      const shard = keyTable(name, content);
      if (shard) add(shard.write(join(staging, `${prefix}${name}.keys`), buildId), name, `${prefix}${name}.keys`);
    }
    const relations = relationTable(content);
    if (relations) add(relations.write(join(staging, `${prefix}relations.arr`), buildId), 'relations', `${prefix}relations.arr`);
    // The explore feed is small: every delta stores it whole, in global ordinals.
    const explore = new ShardWriter(join(staging, `${prefix}explore.blob`), SHARD_KINDS.blob, buildId);
    explore.section('groups', pack(content.explore));
    add(explore.finish(), 'explore', `${prefix}explore.blob`);
    add(content.orders.write(join(staging, `${prefix}${SEGMENT_ORDERS_TABLE}.arr`), buildId), SEGMENT_ORDERS_TABLE, `${prefix}${SEGMENT_ORDERS_TABLE}.arr`);
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

function eachHeld(count: number, visit: (i: number) => void): void {
  for (let i = 0; i < count; i++) visit(i);
}

/** The keys of the held resources of the table's type (multi-valued ones in local-id order), or null when it holds none. */
function keyTable(name: string, content: DeltaContent): KeyTableBuilder | null {
  const type = name.slice(0, name.indexOf('.')) as SegmentType;
  const { held } = content.plan[type];
  if (held.length === 0) return null;
  const rows = Array.from(held, (g, i) => ({ g, record: content.record(type, i) }));
  if (MULTI_VALUED_KEYS.has(name)) rows.sort((a, b) => compareLocalIds(String(a.record.id), String(b.record.id)));
  const builder = new KeyTableBuilder(name);
  for (const { g, record } of rows) for (const key of keysOf(name, record)) builder.add(key, g);
  return builder;
}

/** Every relationship list of the held sources, targets in global ordinals; null when nothing is held. */
function relationTable(content: DeltaContent): ArrayTableWriter | null {
  const writer = new ArrayTableWriter();
  let any = false;
  for (const name of Object.keys(RELATION_TARGETS)) {
    if (!content.relations.includes(name)) continue;
    const source = name.slice(0, name.indexOf('.')) as SegmentType;
    const count = content.plan[source].held.length;
    if (count === 0) continue;
    const offsets = new Uint32Array(count + 1);
    const targets: number[] = [];
    for (let i = 0; i < count; i++) {
      for (const t of Array.from(content.targets(name, i))) targets.push(t);
      offsets[i + 1] = targets.length;
    }
    writer.adjacency(name, offsets, Uint32Array.from(targets));
    any = true;
  }
  return any ? writer : null;
}
