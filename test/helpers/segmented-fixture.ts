import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Catalog } from '../../src/catalog/catalog.js';
import { publishDelta, type PublishedDelta } from '../../src/compile/delta/publish-delta.js';
import { compileCatalog } from '../../src/compile/index.js';
import { generateCatalog } from '../../src/generate/generate.js';
import { applyDailyChanges, readRawTables, writeRawTables } from '../../src/generate/daily-changes.js';

export interface SegmentedFixture {
  /** The dist directory whose current snapshot is the base plus one delta per delivery. */
  readonly dist: string;
  /** After each delivery, the dist directory of the full compile of the raw catalog. */
  readonly fulls: string[];
  readonly published: PublishedDelta[];
}

/**
 * A generated catalog compiled, then `rounds` deliveries (delivery-raw.ts) each compiled in full
 * and published as one delta over the snapshot in service; `onDelta` is told after each.
 */
export async function segmentedFixture(
  root: string,
  { songs = 2500, seed = 7, rounds = 2 }: { songs?: number; seed?: number; rounds?: number } = {},
  onDelta: (round: number, full: string) => void = () => undefined,
): Promise<SegmentedFixture> {
  const raw = join(root, 'raw0');
  const dist = join(root, 'dist');
  await generateCatalog({ songs, seed, out: raw });
  await compileCatalog({ rawDir: raw, outDir: dist });
  let tables = readRawTables(raw);
  const fulls: string[] = [];
  const published: PublishedDelta[] = [];
  for (let round = 1; round <= rounds; round++) {
    tables = applyDailyChanges(tables, round);
    const next = join(root, `raw${round}`);
    mkdirSync(next);
    writeRawTables(tables, next);
    const full = join(root, `full${round}`);
    await compileCatalog({ rawDir: next, outDir: full });
    fulls.push(full);
    const cat = Catalog.open(full, { searchable: false });
    try {
      const delta = publishDelta(dist, cat);
      if (delta) published.push(delta);
    } finally {
      cat.close();
    }
    onDelta(round, full);
  }
  return { dist, fulls, published };
}
