import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../src/catalog/catalog.js';
import { compileDelta } from '../src/compile/delta/compile-delta.js';
import { publishDelta } from '../src/compile/delta/publish-delta.js';
import { rawChanges, writeJournal } from '../src/generate/raw-changes.js';
import { compileCatalog } from '../src/compile/index.js';
import { generateCatalog } from '../src/generate/generate.js';
import { readRawTables, writeRawTables, type RawTables } from '../src/generate/daily-changes.js';
import { applyOps, delivery } from './helpers/random-delivery.js';
import { tempDir } from './helpers/raw-fixture.js';
import { everyDisagreement } from './helpers/segment-checks.js';

// The property (b): for random sequences of deliveries (takedowns, renames, re-ranked
// songs, renamed artists, new releases sharing words, prefixes and ISRCs with the catalog), the
// base plus one delta per delivery reads, searches and matches as the full compile of the same
// raw catalog, after every delivery.

const NONE = { records: [], keys: [], orders: [], search: [], match: [], verify: [] };

/** How a delivery becomes a delta: from a full compile (the reference), or from the change journal (`omm compile --delta`). */
type DeltaPath = 'full compile' | 'journal';

describe.each<DeltaPath>(['full compile', 'journal'])('a base and random deliveries as deltas (from the %s) answer as the full compile', (path) => {
  const root = tempDir('omm-segments-property-');
  let base: RawTables;

  it('holds for random sequences of deliveries', async () => {
    const seedRaw = join(root, 'seed-raw');
    await generateCatalog({ songs: 400, seed: 9, out: seedRaw });
    base = readRawTables(seedRaw);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(delivery, { minLength: 1, maxLength: 3 }), async (deliveries) => {
        const dir = join(root, `run${run++}`);
        mkdirSync(dir);
        try {
          const dist = join(dir, 'dist');
          await compileCatalog({ rawDir: seedRaw, outDir: dist });
          let tables = base;
          let previousRaw = seedRaw;
          for (const [round, ops] of deliveries.entries()) {
            const after = applyOps(tables, ops, round);
            const raw = join(dir, `raw${round}`);
            mkdirSync(raw);
            writeRawTables(after, raw);
            writeJournal(raw, previousRaw, rawChanges(tables, after));
            [tables, previousRaw] = [after, raw];
            const full = join(dir, `full${round}`);
            await compileCatalog({ rawDir: raw, outDir: full });
            if (path === 'journal') await compileDelta({ rawDir: raw, outDir: dist });
            else {
              const next = Catalog.open(full, { searchable: false });
              try {
                publishDelta(dist, next);
              } finally {
                next.close();
              }
            }
            expect(everyDisagreement(dist, full), `delivery ${round} of ${JSON.stringify(deliveries)}`).toEqual(NONE);
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      // The journal's delta is what ships: it gets the most runs; the reference a few.
      { numRuns: path === 'journal' ? 8 : 3, seed: 44, endOnFailure: true },
    );
  }, 300_000);
});
