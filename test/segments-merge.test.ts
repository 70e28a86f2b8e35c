import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../src/catalog/catalog.js';
import { identityOf } from '../src/compile/delta/identity.js';
import { publishDelta } from '../src/compile/delta/publish-delta.js';
import { compileCatalog } from '../src/compile/index.js';
import { generateCatalog } from '../src/generate/generate.js';
import { searchCatalog } from '../src/search/catalog-search.js';
import { searchIndex } from '../src/search/search-engine.js';
import { readRawTables, writeRawTables } from '../src/generate/daily-changes.js';
import { applyOps, type DeliveryOp } from './helpers/random-delivery.js';
import { tempDir } from './helpers/raw-fixture.js';

// A one-word search over segments may be the base's own answer merged with the deltas'
// (segmented-merge.ts) only when the deltas cannot change what it decides over the whole catalog.
// Here a word is only a prefix in the base, found there fewer than FUZZY_BELOW times (the base
// alone would look for typos), and a delta brings enough documents that the whole catalog does not.

describe('one word over segments: the base answer merged only where that is exact', () => {
  const root = tempDir('omm-segments-merge-');
  let seg: Catalog;
  let full: Catalog;

  beforeAll(async () => {
    const seedRaw = join(root, 'seed');
    await generateCatalog({ songs: 300, seed: 4, out: seedRaw });
    const rename = (at: number, name: string): DeliveryOp => ({ kind: 'renameSong', at, name });
    const baseTables = applyOps(
      readRawTables(seedRaw),
      [...[0, 1, 2].map((at) => rename(at, 'Lovable')), ...[10, 11, 12, 13].map((at) => rename(at, 'Love'))],
      0,
    );
    const after = applyOps(
      baseTables,
      [{ kind: 'addRelease', names: Array.from({ length: 12 }, () => 'Lovable Lovable'), artist: null, sharesIsrcOf: null }],
      1,
    );
    for (const [name, tables] of [
      ['raw0', baseTables],
      ['raw1', after],
    ] as const) {
      mkdirSync(join(root, name));
      writeRawTables(tables, join(root, name));
    }
    await compileCatalog({ rawDir: join(root, 'raw0'), outDir: join(root, 'dist') });
    await compileCatalog({ rawDir: join(root, 'raw1'), outDir: join(root, 'full') });
    full = Catalog.open(join(root, 'full'));
    publishDelta(join(root, 'dist'), full);
    seg = Catalog.open(join(root, 'dist'));
  }, 120_000);

  it('ranks as the full compile where the base alone would have looked for typos', () => {
    const base = Catalog.open(join(root, 'dist', 'snapshots', seg.snapshot.manifest.segments![0].buildId));
    // The base alone: few documents, so its typo tier ran and found documents the whole catalog does not show.
    expect(searchIndex(base.search('song'), 'lova').hits.some((h) => h.tier >= 4)).toBe(true);
    base.close();
    for (const term of ['lova', 'lovab', 'lovable', 'love', 'lov', 'lo']) {
      for (const options of [{ need: 10 }, { need: 5, countTo: 6 }, {}]) {
        const a = searchCatalog(seg, 'song', term, options);
        const b = searchIndex(full.search('song'), term, options);
        const ids = (cat: Catalog, hits: { rank: number; tier: number }[], ordinal: (rank: number) => number) =>
          hits.map((h) => `${identityOf('song', cat.records('song').get(ordinal(h.rank)))}:${h.tier}`).join(' ');
        expect(`${a.total} ${ids(seg, a.hits, (r) => seg.order('song', 'popularity').get(r))}`, `${term} ${JSON.stringify(options)}`).toBe(
          `${b.total} ${ids(full, b.hits, (r) => full.search('song').ordinal(r))}`,
        );
      }
    }
  });
});
