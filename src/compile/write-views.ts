import { joinRecordTableParts, RecordTableWriter } from '../index-format/tables/record-table-writer.js';
import type { WrittenShard } from '../index-format/shards/shard-writer.js';
import { Snapshot } from '../index-format/snapshot.js';
import { Catalog } from '../catalog/catalog.js';
import { OM_TYPE } from '../interfaces/openmusic/spec.js';
import { OmRenderer } from '../interfaces/openmusic/render.js';
import { VIEW_TYPES, viewTable, type ViewInterface, type ViewType } from '../catalog/views.js';
import { emptyInclude } from '../interfaces/v1/spec.js';
import { V1Renderer } from '../interfaces/v1/render.js';
import { JsonWriter } from '../interfaces/json-writer.js';
import { besideWorker, eachRow, runWorkerJob } from './worker-job.js';
import { SPLIT_SONGS_FROM } from './write/song-records.js';

const INTERFACES: readonly ViewInterface[] = ['v1', 'om'];

/** The views of one type in both interfaces, for ordinals [from, to). */
export interface ViewPart {
  readonly type: ViewType;
  readonly from: number;
  readonly to: number;
}

/** What one part wrote: each interface's shards of its range. */
export interface WrittenViewPart extends ViewPart {
  readonly shards: Readonly<Record<ViewInterface, WrittenShard[]>>;
}

export interface ViewsBuild {
  readonly staging: string;
  readonly buildId: string;
  readonly parts: readonly ViewPart[];
}

/**
 * Renders the default view of every resource of each part's range in both interfaces, with the
 * server's own renderers over the records just written to `staging` (whose manifest lists them
 * and no views yet), and stores each as UTF-8 JSON in its interface's record table. What the
 * server would render is, by construction, what it sends. A resource's two views are rendered
 * one after the other, so its records are decoded once (keepRecent) for both.
 */
export function writeViews({ staging, buildId, parts }: ViewsBuild, onRow?: () => void): WrittenViewPart[] {
  const cat = new Catalog(Snapshot.open(staging), { searchable: false, views: false, keepRecent: true });
  try {
    const renderers = INTERFACES.map((iface) => defaultView(cat, iface));
    const json = new JsonWriter();
    return parts.map(({ type, from, to }) => {
      const tables = INTERFACES.map((iface) => new RecordTableWriter(staging, viewTable(iface, type), buildId, null, { firstOrdinal: from }));
      for (let ordinal = from; ordinal < to; ordinal++) {
        for (let i = 0; i < tables.length; i++) tables[i].addBytes(json.bytes(renderers[i](type, ordinal)));
        onRow?.();
      }
      return { type, from, to, shards: { v1: tables[0].finish(), om: tables[1].finish() } };
    });
  } finally {
    cat.close();
  }
}

/** Renders a resource of `type` in its default view in `iface`. */
export function defaultView(cat: Catalog, iface: ViewInterface): (type: ViewType, ordinal: number) => unknown {
  if (iface === 'v1') {
    const v1 = new V1Renderer(cat, { include: emptyInclude(), limits: new Map(), sorts: new Map(), fields: new Map(), lang: undefined, attributes: 'full' });
    return (type, ordinal) => v1.resource(type, ordinal, null);
  }
  const om = new OmRenderer(cat, { include: new Set(), limits: new Map(), minimal: new Set(), lang: 'en-US' });
  return (type, ordinal) => om.resource(OM_TYPE[type], ordinal);
}

/**
 * The share of the songs that this thread renders; the worker renders the rest and every other
 * type, so both finish together. Measured at 1M songs, per-thread CPU from /proc: with 53 % here
 * the worker finished ~3 s after this thread, with 58 % this thread ~5 s after the worker (this
 * thread also counts the worker's rows and collects more garbage).
 */
const SONGS_HERE = 0.55;

/**
 * Renders both interfaces' views on two threads: the first SONGS_HERE of the songs here (all of
 * them below SPLIT_SONGS_FROM), the other songs and every other type on a worker
 * (views-worker.ts). Each table's ranges are then named as one table; shards come back in a
 * fixed order, interface 1 then 2, each type in VIEW_TYPES order.
 */
export async function writeAllViews(
  staging: string,
  buildId: string,
  counts: Readonly<Record<ViewType, number>>,
  { onRow, splitSongsFrom = SPLIT_SONGS_FROM }: { onRow?: () => void; splitSongsFrom?: number } = {},
): Promise<WrittenShard[]> {
  const split = counts.song >= splitSongsFrom ? Math.ceil(counts.song * SONGS_HERE) : counts.song;
  const here: ViewPart[] = [{ type: 'song', from: 0, to: split }];
  const elsewhere: ViewPart[] = [
    ...(split < counts.song ? [{ type: 'song' as const, from: split, to: counts.song }] : []),
    ...VIEW_TYPES.filter((t) => t !== 'song').map((type) => ({ type, from: 0, to: counts[type] })),
  ];
  const build: ViewsBuild = { staging, buildId, parts: elsewhere };
  const job = runWorkerJob('views', './views-worker.js', import.meta.url, build, () => writeViews(build, onRow), eachRow(onRow));
  const [mine, theirs] = await besideWorker(job, () => writeViews({ staging, buildId, parts: here }, onRow));
  const written = [...mine, ...theirs];
  const shards: WrittenShard[] = [];
  for (const iface of INTERFACES) {
    for (const type of VIEW_TYPES) {
      const parts = written.filter((p) => p.type === type).sort((a, b) => a.from - b.from);
      shards.push(
        ...joinRecordTableParts(
          viewTable(iface, type),
          parts.map((p) => p.shards[iface]),
        ),
      );
    }
  }
  return shards;
}
