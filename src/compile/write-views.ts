import { RecordTableWriter } from '../index-format/record-table.js';
import type { WrittenShard } from '../index-format/shard-writer.js';
import { Snapshot } from '../index-format/snapshot.js';
import { Catalog } from '../catalog/catalog.js';
import { OM_TYPE } from '../interfaces/openmusic/spec.js';
import { OmRenderer } from '../interfaces/openmusic/render.js';
import { VIEW_TYPES, viewTable, type ViewInterface, type ViewType } from '../catalog/views.js';
import { emptyInclude } from '../interfaces/v1/spec.js';
import { V1Renderer } from '../interfaces/v1/render.js';
import { runWorkerJob } from './worker-job.js';

export interface ViewsBuild {
  readonly staging: string;
  readonly buildId: string;
  readonly iface: ViewInterface;
}

/**
 * Renders the default view of every song, album, artist and playlist in one interface, with the
 * server's own renderers over the records just written to `staging` (whose manifest lists them
 * and no views yet), and stores each as UTF-8 JSON in a record table. What the server would
 * render is, by construction, what it sends.
 */
export function writeViews({ staging, buildId, iface }: ViewsBuild, onRow?: () => void): WrittenShard[] {
  const cat = new Catalog(Snapshot.open(staging), { searchable: false, views: false });
  try {
    const render = defaultView(cat, iface);
    const shards: WrittenShard[] = [];
    for (const type of VIEW_TYPES) {
      const table = new RecordTableWriter(staging, viewTable(iface, type), buildId, null);
      const count = cat.count(type);
      for (let ordinal = 0; ordinal < count; ordinal++) {
        table.addBytes(Buffer.from(JSON.stringify(render(type, ordinal))));
        onRow?.();
      }
      shards.push(...table.finish());
    }
    return shards;
  } finally {
    cat.close();
  }
}

/** Renders a resource of `type` in its default view in `iface`. */
function defaultView(cat: Catalog, iface: ViewInterface): (type: ViewType, ordinal: number) => unknown {
  if (iface === 'v1') {
    const v1 = new V1Renderer(cat, { include: emptyInclude(), limits: new Map(), sorts: new Map(), fields: new Map(), lang: undefined, attributes: 'full' });
    return (type, ordinal) => v1.resource(type, ordinal, null);
  }
  const om = new OmRenderer(cat, { include: new Set(), limits: new Map(), minimal: new Set(), lang: 'en-US' });
  return (type, ordinal) => om.resource(OM_TYPE[type], ordinal);
}

/**
 * Renders both interfaces' views at once: interface 2 on a worker thread (views-worker.ts, the
 * second core), interface 1 on this one. Shards come back in a fixed order: interface 1, then 2.
 */
export async function writeAllViews(staging: string, buildId: string, onRow?: () => void): Promise<WrittenShard[]> {
  const om: ViewsBuild = { staging, buildId, iface: 'om' };
  const omJob = runWorkerJob('views', './views-worker.js', import.meta.url, om, () => writeViews(om, onRow));
  omJob.catch(() => undefined); // awaited below; avoid an unhandled rejection meanwhile
  const v1 = writeViews({ staging, buildId, iface: 'v1' }, onRow);
  return [...v1, ...(await omJob)];
}
