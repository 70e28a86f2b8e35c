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

/** A base and one delta of hand-written raw catalogs: the full compile of the second, and the base plus the delta made from it (publishDelta). */
export interface BaseAndDelta {
  /** The full compile of the raw catalog after the delivery. */
  readonly full: Catalog;
  /** The base plus one delta, answering for the same raw catalog. */
  readonly seg: Catalog;
  close(): void;
}

/**
 * `writeBase` and `writeAfter` write a raw catalog each (into the directory given): the first is
 * compiled as the base, the second in full and published as one delta over it.
 */
export async function baseAndDelta(root: string, writeBase: (dir: string) => void, writeAfter: (dir: string) => void): Promise<BaseAndDelta> {
  writeBase(join(root, 'raw0'));
  await compileCatalog({ rawDir: join(root, 'raw0'), outDir: join(root, 'dist') });
  writeAfter(join(root, 'raw1'));
  await compileCatalog({ rawDir: join(root, 'raw1'), outDir: join(root, 'full') });
  const full = Catalog.open(join(root, 'full'));
  publishDelta(join(root, 'dist'), full);
  const seg = Catalog.open(join(root, 'dist'));
  return {
    full,
    seg,
    close: () => {
      full.close();
      seg.close();
    },
  };
}
