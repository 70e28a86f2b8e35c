import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Catalog } from '../../catalog/catalog.js';
import { VIEW_TYPES, viewTable, type ViewInterface } from '../../catalog/views.js';
import type { ManifestShard } from '../../index-format/manifest.js';
import { Snapshot } from '../../index-format/snapshot.js';
import { RecordTableWriter } from '../../index-format/tables/record-table-writer.js';
import { JsonWriter } from '../../interfaces/json-writer.js';
import { defaultView } from '../write-views.js';
import type { DeltaPlan } from './delta-plan.js';

/**
 * The stored default views of the resources a delta holds, rendered as a full compile renders
 * them (write-views.ts): by the server's own renderers, over the staged snapshot whose manifest
 * already names the delta's records (and no views of its own yet), so a view is what the server
 * would send over the segments. Row i of each table is the i-th held ordinal's view.
 */
export function renderDeltaViews(staging: string, prefix: string, segment: number, buildId: string, plan: DeltaPlan): ManifestShard[] {
  const cat = new Catalog(Snapshot.open(staging), { searchable: false, views: false, keepRecent: true });
  const work = join(staging, `.${prefix}views`);
  mkdirSync(work);
  try {
    const entries: ManifestShard[] = [];
    const json = new JsonWriter();
    for (const iface of ['v1', 'om'] as ViewInterface[]) {
      const render = defaultView(cat, iface);
      for (const type of VIEW_TYPES) {
        const held = plan[type].held;
        if (held.length === 0) continue;
        const table = viewTable(iface, type);
        const writer = new RecordTableWriter(work, table, buildId, null);
        for (const g of held) writer.addBytes(json.bytes(render(type, g)));
        for (const shard of writer.finish()) {
          const file = `${prefix}${shard.path.slice(shard.path.lastIndexOf('/') + 1)}`;
          renameSync(shard.path, join(staging, file));
          entries.push({ file, kind: shard.kind, name: table, size: shard.size, sha256: shard.sha256, segment });
        }
      }
    }
    return entries;
  } finally {
    cat.close();
    rmSync(work, { recursive: true, force: true });
  }
}
