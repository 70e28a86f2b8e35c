import { RecordTableWriter } from '../index-format/record-table.js';
import type { WrittenShard } from '../index-format/shard-writer.js';
import { Snapshot } from '../index-format/snapshot.js';
import { Catalog } from '../serve/catalog.js';
import { OmRenderer } from '../serve/openmusic/render.js';
import { VIEW_TYPES, viewTable, type ViewType } from '../serve/views.js';
import { emptyInclude } from '../serve/v1/params.js';
import { V1Renderer } from '../serve/v1/render.js';

const OM_TYPE = { song: 'songs', album: 'albums', artist: 'artists', playlist: 'playlists' } as const satisfies Record<ViewType, string>;

/**
 * Renders the default view of every song, album, artist and playlist, in both interfaces, with
 * the server's own renderers over the records just written to `staging` (whose manifest lists
 * them and no views yet), and stores each as UTF-8 JSON in a record table. What the server would
 * render is, by construction, what it sends.
 */
export function writeViews(staging: string, buildId: string, onRow?: () => void): WrittenShard[] {
  const cat = new Catalog(Snapshot.open(staging), { searchable: false, views: false });
  try {
    const v1 = new V1Renderer(cat, { include: emptyInclude(), limits: new Map(), sorts: new Map(), fields: new Map(), lang: undefined, attributes: 'full' });
    const om = new OmRenderer(cat, { include: new Set(), limits: new Map(), minimal: new Set(), lang: 'en-US' });
    const shards: WrittenShard[] = [];
    for (const type of VIEW_TYPES) {
      const count = cat.count(type);
      const v1Table = new RecordTableWriter(staging, viewTable('v1', type), buildId, null);
      const omTable = new RecordTableWriter(staging, viewTable('om', type), buildId, null);
      for (let ordinal = 0; ordinal < count; ordinal++) {
        v1Table.addBytes(Buffer.from(JSON.stringify(v1.resource(type, ordinal, null))));
        omTable.addBytes(Buffer.from(JSON.stringify(om.resource(OM_TYPE[type], ordinal))));
        onRow?.();
      }
      shards.push(...v1Table.finish(), ...omTable.finish());
    }
    return shards;
  } finally {
    cat.close();
  }
}
