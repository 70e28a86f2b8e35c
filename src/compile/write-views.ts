import { RecordTableWriter } from '../index-format/record-table.js';
import type { WrittenShard } from '../index-format/shard-writer.js';
import { Snapshot } from '../index-format/snapshot.js';
import { Catalog } from '../catalog/catalog.js';
import { OM_TYPE } from '../interfaces/openmusic/spec.js';
import { OmRenderer } from '../interfaces/openmusic/render.js';
import { VIEW_TYPES, viewTable, type ViewInterface, type ViewType } from '../catalog/views.js';
import { emptyInclude } from '../interfaces/v1/spec.js';
import { V1Renderer } from '../interfaces/v1/render.js';
import { JsonWriter } from '../interfaces/json-writer.js';
import { eachRow, runWorkerJob } from './worker-job.js';

/** One view table: an interface's default view of one type. */
export interface ViewPart {
  readonly iface: ViewInterface;
  readonly type: ViewType;
}

export interface ViewsBuild {
  readonly staging: string;
  readonly buildId: string;
  readonly parts: readonly ViewPart[];
}

/**
 * Renders the default view of every resource of each part's type in its interface, with the
 * server's own renderers over the records just written to `staging` (whose manifest lists them
 * and no views yet), and stores each as UTF-8 JSON in a record table. What the server would
 * render is, by construction, what it sends. Shards come back part by part, in order.
 */
export function writeViews({ staging, buildId, parts }: ViewsBuild, onRow?: () => void): WrittenShard[] {
  const cat = new Catalog(Snapshot.open(staging), { searchable: false, views: false });
  try {
    const renderers = new Map<ViewInterface, (type: ViewType, ordinal: number) => unknown>();
    const shards: WrittenShard[] = [];
    const json = new JsonWriter();
    for (const { iface, type } of parts) {
      let render = renderers.get(iface);
      if (!render) renderers.set(iface, (render = defaultView(cat, iface)));
      const table = new RecordTableWriter(staging, viewTable(iface, type), buildId, null);
      const count = cat.count(type);
      for (let ordinal = 0; ordinal < count; ordinal++) {
        table.addBytes(json.bytes(render(type, ordinal)));
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
 * Renders both interfaces' views on two threads: interface 1's songs here, everything else on a
 * worker (views-worker.ts), which balances the two (interface 1's song views, with their lyrics,
 * are the heaviest part: at 1M songs about 22 CPU s of 45). Shards come back in a fixed order,
 * interface 1 then 2, each type in VIEW_TYPES order.
 */
export async function writeAllViews(staging: string, buildId: string, onRow?: () => void): Promise<WrittenShard[]> {
  const here: ViewPart[] = [{ iface: 'v1', type: 'song' }];
  const elsewhere: ViewPart[] = [...VIEW_TYPES.filter((t) => t !== 'song').map((type) => ({ iface: 'v1' as const, type })), ...VIEW_TYPES.map((type) => ({ iface: 'om' as const, type }))];
  const build: ViewsBuild = { staging, buildId, parts: elsewhere };
  const job = runWorkerJob('views', './views-worker.js', import.meta.url, build, () => writeViews(build, onRow), eachRow(onRow));
  job.catch(() => undefined); // awaited below; avoid an unhandled rejection meanwhile
  const songs = writeViews({ staging, buildId, parts: here }, onRow);
  return [...songs, ...(await job)];
}
