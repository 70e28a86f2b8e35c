import { join } from 'node:path';
import { pack } from 'msgpackr';
import { ArrayTableWriter } from '../../index-format/tables/array-table.js';
import { SHARD_KINDS } from '../../index-format/constants.js';
import { ShardWriter, type WrittenShard } from '../../index-format/shards/shard-writer.js';
import type { ExploreGroup } from '../../catalog/explore-feed.js';
import { normalizeGtin13 } from '../../raw/codes.js';
import { KeyTableSink } from '../key-table-sink.js';
import type { MemoryBudget } from '../memory-budget.js';
import { invertOrderFile, rankSlice } from '../orders-build/invert-order.js';
import type { EntityOrderFiles } from '../orders-build/index.js';
import { mapU32Column } from '../spill/columns.js';
import type { SpillDir } from '../spill/spill-dir.js';
import type { EntityColumns } from '../validate/entity-files.js';
import type { EntityOrders } from '../relations/derived-relations.js';
import type { BuildContext } from './build-context.js';

export interface NamedShard extends WrittenShard {
  readonly name: string;
}

export interface IndexInputs {
  readonly ctx: BuildContext;
  readonly orderFiles: {
    readonly songs: EntityOrderFiles;
    readonly albums: EntityOrderFiles;
    readonly artists: EntityOrderFiles;
    readonly playlists: EntityOrderFiles;
  };
  readonly explore: ExploreGroup[];
  readonly spill: SpillDir;
  readonly budget: MemoryBudget;
}

/**
 * Writes the key tables (id, catalog id, ISRC, UPC, genre and station names), each built out of
 * core, the order and rank arrays and the relationship adjacencies straight from their mapped
 * column files, and the explore feed.
 */
export function writeIndexes({ ctx, orderFiles, explore, spill, budget }: IndexInputs): NamedShard[] {
  const { outDir, buildId } = ctx;
  const shards: NamedShard[] = [];
  const bytes = budget.sorterBytes(1);
  // A key table is no faster with more than about 64 MiB (measured at 10M ids: 64 MiB and 1 GiB
  // alike), and a smaller arena leaves the memory to the search worker beside it.
  const keyBytes = Math.min(bytes, 128 * 2 ** 20);
  const keys = (name: string, fill: (add: (key: string, value: number) => void) => void) => {
    const sink = new KeyTableSink(name, spill, keyBytes);
    fill((key, value) => sink.add(key, value));
    shards.push({ name, ...sink.write(join(outDir, `${name}.keys`), buildId) });
  };
  const idKeys = (type: string, cols: EntityColumns, withOmm: boolean) => {
    keys(`${type}.id`, (add) => {
      for (let i = 0; i < cols.count; i++) add(cols.ids.get(i), i);
    });
    if (withOmm) {
      keys(`${type}.omm`, (add) => {
        for (let i = 0; i < cols.count; i++) add(cols.ommIds.get(i), i);
      });
    }
  };
  idKeys('song', ctx.songs, true);
  idKeys('album', ctx.albums, true);
  idKeys('artist', ctx.artists, true);
  idKeys('playlist', ctx.playlists, false);
  keys('station.id', (add) => {
    for (let st = 0; st < ctx.stations.count; st++) add(ctx.stations.id(st), st);
  });
  // Multi-valued keys list their rows in local-id order.
  const byLocalId = (files: EntityOrderFiles) => {
    const path = spill.file('by-local-id');
    invertOrderFile(files.idRank, path, rankSlice(mapU32Column(files.idRank).length, bytes));
    return mapU32Column(path);
  };
  keys('song.isrc', (add) => {
    for (const s of byLocalId(orderFiles.songs)) {
      const isrc = ctx.songs.code.get(s);
      if (isrc) add(isrc, s);
    }
  });
  keys('album.upc', (add) => {
    for (const al of byLocalId(orderFiles.albums)) {
      const upc = ctx.albums.code.get(al);
      const gtin = upc ? normalizeGtin13(upc) : null;
      if (gtin) add(gtin, al);
    }
  });
  keys('genre.name', (add) => ctx.genres.forEach((name, g) => add(name.normalize('NFKC').toLowerCase(), g)));

  const orderTable = (name: string, orders: EntityOrders) => {
    const writer = new ArrayTableWriter();
    for (const [order, values] of orders.orders) writer.array(`order.${order}`, values);
    for (const [order, values] of orders.ranks) writer.array(`rank.${order}`, values);
    shards.push({ name, ...writer.write(join(outDir, `${name}.arr`), buildId) });
  };
  orderTable('songs.orders', ctx.orders.songs);
  orderTable('albums.orders', ctx.orders.albums);
  orderTable('artists.orders', ctx.orders.artists);
  orderTable('playlists.orders', ctx.orders.playlists);

  const relations = new ArrayTableWriter();
  for (const [name, adj] of [...ctx.relations].filter(([n]) => n !== 'station.tracks').sort(([a], [b]) => (a < b ? -1 : 1))) {
    relations.adjacency(name, adj.offsets, adj.targets);
  }
  const stationTracks = ctx.relations.get('station.tracks')!;
  relations.adjacency('station.tracks', stationTracks.offsets, stationTracks.targets);
  shards.push({ name: 'relations', ...relations.write(join(outDir, 'relations.arr'), buildId) });

  const exploreWriter = new ShardWriter(join(outDir, 'explore.blob'), SHARD_KINDS.blob, buildId);
  exploreWriter.section('groups', pack(explore));
  shards.push({ name: 'explore', ...exploreWriter.finish() });
  return shards;
}
