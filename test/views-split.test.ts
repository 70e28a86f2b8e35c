import { cpSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Unpackr } from 'msgpackr';
import { compileCatalog } from '../src/compile/compile.js';
import { writeAllViews } from '../src/compile/write-views.js';
import { generateCatalog } from '../src/generate/generate.js';
import { SHARD_KINDS } from '../src/index-format/constants.js';
import { RecordTable } from '../src/index-format/tables/record-table.js';
import { openShard } from '../src/index-format/shards/shard-reader.js';
import type { WrittenShard } from '../src/index-format/shards/shard-writer.js';
import { VIEW_TYPES, viewTable } from '../src/catalog/views.js';
import { tempDir } from './helpers/raw-fixture.js';

/** Each view table's shards, opened as one table. */
function tables(shards: WrittenShard[]): Map<string, RecordTable> {
  const byTable = new Map<string, string[]>();
  for (const s of shards) {
    const file = s.path.slice(s.path.lastIndexOf('/') + 1);
    const table = file.slice(0, file.indexOf('.'));
    byTable.set(table, [...(byTable.get(table) ?? []), s.path]);
  }
  return new Map(
    [...byTable].map(([table, paths]) => [
      table,
      new RecordTable(
        table,
        paths.map((p) => openShard(p, SHARD_KINDS.records)),
        new Unpackr(),
      ),
    ]),
  );
}

/**
 * From SPLIT_SONGS_FROM songs, two threads render the song views, each a range of the songs in
 * both interfaces, and the ranges' shards are named as one table. The views are the same bytes,
 * resource for resource, as when one thread renders them all.
 */
describe('views rendered in ranges', () => {
  it('are the same views, in one table per interface and type, as rendered whole', async () => {
    const raw = tempDir('omm-views-split-raw-');
    await generateCatalog({ songs: 1500, seed: 5, out: raw });
    const dist = tempDir('omm-views-split-dist-');
    const compiled = await compileCatalog({ rawDir: raw, outDir: dist, views: false });
    const counts = {
      song: compiled.manifest.counts.songs,
      album: compiled.manifest.counts.albums,
      artist: compiled.manifest.counts.artists,
      playlist: compiled.manifest.counts.playlists,
    };
    const [whole, split] = ['whole', 'split'].map((name) => {
      const dir = tempDir(`omm-views-${name}-`);
      cpSync(compiled.snapshotDir, dir, { recursive: true });
      return dir;
    });
    const wholeShards = await writeAllViews(whole, compiled.buildId, counts, { splitSongsFrom: Number.POSITIVE_INFINITY });
    const splitShards = await writeAllViews(split, compiled.buildId, counts, { splitSongsFrom: 1 });

    // The order the manifest lists them in: interface 1, then 2, each type in order.
    const order = (shards: WrittenShard[]) => [...new Set(shards.map((s) => s.path.slice(s.path.lastIndexOf('/') + 1).split('.')[0]))];
    const expected = ['v1', 'om'].flatMap((iface) => VIEW_TYPES.map((type) => viewTable(iface as 'v1' | 'om', type)));
    expect(order(wholeShards)).toEqual(expected);
    expect(order(splitShards)).toEqual(expected);
    for (const iface of ['v1', 'om'] as const) {
      const files = readdirSync(split)
        .filter((f) => f.startsWith(`${viewTable(iface, 'song')}.`))
        .sort();
      expect(files).toEqual([`${viewTable(iface, 'song')}.0000.rec`, `${viewTable(iface, 'song')}.0001.rec`]);
    }
    const a = tables(wholeShards);
    const b = tables(splitShards);
    expect(b.get(viewTable('v1', 'song'))!.count).toBe(counts.song);
    let compared = 0;
    for (const [table, records] of a) {
      const other = b.get(table)!;
      expect(other.count, table).toBe(records.count);
      for (let o = 0; o < records.count; o++) {
        expect(other.raw(o).equals(records.raw(o)), `${table} ${o}`).toBe(true);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(2 * counts.song);
  }, 120_000);
});
