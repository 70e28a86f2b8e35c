import { join } from 'node:path';
import { pack } from 'msgpackr';
import { ArrayTableWriter } from '../index-format/array-table.js';
import { SHARD_KINDS } from '../index-format/constants.js';
import { KeyTableBuilder } from '../index-format/key-table.js';
import { ShardWriter, type WrittenShard } from '../index-format/shard-writer.js';
import { normalizeGtin13 } from '../raw/codes.js';
import type { CatalogIndex, EntityColumns } from './catalog-index.js';
import type { DerivedCatalog, EntityOrders } from './derive.js';
import type { ExploreGroup } from '../catalog/explore-feed.js';
import type { StationPlan } from './stations.js';

export interface NamedShard extends WrittenShard {
  readonly name: string;
}

/** Ordinals in local-id order, so multi-valued keys list their rows by local id. */
function byLocalId(orders: EntityOrders): Uint32Array {
  const out = new Uint32Array(orders.idRank.length);
  orders.idRank.forEach((rank, ordinal) => (out[rank] = ordinal));
  return out;
}

/**
 * Writes the key tables (id, catalog id, ISRC, UPC, genre and station names), the order and
 * rank arrays, the relationship adjacencies, and the explore feed.
 */
export function writeIndexes(
  outDir: string,
  buildId: string,
  index: CatalogIndex,
  derived: DerivedCatalog,
  stations: StationPlan,
  explore: ExploreGroup[],
): NamedShard[] {
  const shards: NamedShard[] = [];
  const keys = (name: string, fill: (b: KeyTableBuilder) => void) => {
    const builder = new KeyTableBuilder(name);
    fill(builder);
    shards.push({ name, ...builder.write(join(outDir, `${name}.keys`), buildId) });
  };
  const idKeys = (type: string, cols: EntityColumns, withOmm: boolean) => {
    keys(`${type}.id`, (b) => cols.ids.forEach((id, i) => b.add(id, i)));
    if (withOmm) keys(`${type}.omm`, (b) => cols.ommIds.forEach((omm, i) => b.add(omm, i)));
  };
  idKeys('song', index.songs, true);
  idKeys('album', index.albums, true);
  idKeys('artist', index.artists, true);
  idKeys('playlist', index.playlists, false);
  keys('station.id', (b) => stations.ids.forEach((id, i) => b.add(id, i)));
  keys('song.isrc', (b) => {
    for (const s of byLocalId(derived.songs)) {
      const isrc = index.songIsrc[s];
      if (isrc) b.add(isrc, s);
    }
  });
  keys('album.upc', (b) => {
    for (const al of byLocalId(derived.albums)) {
      const upc = index.albumUpc[al];
      const gtin = upc ? normalizeGtin13(upc) : null;
      if (gtin) b.add(gtin, al);
    }
  });
  keys('genre.name', (b) => index.genreNames.forEach((name, g) => b.add(name.normalize('NFKC').toLowerCase(), g)));

  const orderTable = (name: string, orders: EntityOrders) => {
    const writer = new ArrayTableWriter();
    for (const [order, values] of orders.orders) writer.array(`order.${order}`, values);
    for (const [order, values] of orders.ranks) writer.array(`rank.${order}`, values);
    shards.push({ name, ...writer.write(join(outDir, `${name}.arr`), buildId) });
  };
  orderTable('songs.orders', derived.songs);
  orderTable('albums.orders', derived.albums);
  orderTable('artists.orders', derived.artists);
  orderTable('playlists.orders', derived.playlists);

  const relations = new ArrayTableWriter();
  for (const [name, adj] of [...derived.relations].sort(([a], [b]) => (a < b ? -1 : 1))) {
    relations.adjacency(name, adj.offsets, adj.targets);
  }
  relations.adjacency('station.tracks', stations.offsets, stations.targets);
  shards.push({ name: 'relations', ...relations.write(join(outDir, 'relations.arr'), buildId) });

  const exploreWriter = new ShardWriter(join(outDir, 'explore.blob'), SHARD_KINDS.blob, buildId);
  exploreWriter.section('groups', pack(explore));
  shards.push({ name: 'explore', ...exploreWriter.finish() });
  return shards;
}
