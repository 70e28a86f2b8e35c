import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileDelta } from '../src/compile/delta/compile-delta.js';
import { compileCatalog } from '../src/compile/index.js';
import { generateCatalog } from '../src/generate/generate.js';
import { readDdex } from '../src/import/ddex/read-ddex.js';
import { runStreamedImport } from '../src/import/stage/run-import.js';
import { tempDir } from './helpers/raw-fixture.js';
import { everyDisagreement } from './helpers/segment-checks.js';

// The whole path a label's day takes (docs/segments.md): DDEX release messages imported, compiled;
// a delivery of updated releases and takedowns applied with --into (which journals what it
// changed); `omm compile --delta` from that journal; the segmented snapshot reads as the full
// compile of the same raw catalog.

describe('a DDEX delivery applied with --into and compiled as a delta', () => {
  const root = tempDir('omm-segments-ddex-');

  it('reads as the full compile of the raw catalog it leaves', async () => {
    const ddex = join(root, 'ddex');
    await generateCatalog({ songs: 3000, seed: 5, out: ddex, format: 'ddex' });
    const base = readdirSync(ddex)
      .filter((name) => name !== 'updates')
      .map((name) => join(ddex, name));
    const raw = join(root, 'raw');
    const viaDdex = (inputs: string[], into: boolean) =>
      runStreamedImport('DDEX', { out: raw, into, progress: null }, (sink, report) => readDdex(inputs, sink, report));
    await viaDdex(base, false);
    const dist = join(root, 'dist');
    await compileCatalog({ rawDir: raw, outDir: dist });
    const applied = await viaDdex([join(ddex, 'updates')], true);
    expect(applied.releasesUpdated).toBeGreaterThan(0);
    expect(applied.albumsTakenDown).toBeGreaterThan(0);

    const delta = await compileDelta({ rawDir: raw, outDir: dist });
    expect(delta?.segments).toBe(2);
    expect(delta!.removed.album).toBeGreaterThan(0);
    const full = join(root, 'full');
    await compileCatalog({ rawDir: raw, outDir: full });
    expect(everyDisagreement(dist, full)).toEqual({ records: [], keys: [], orders: [], search: [], match: [], verify: [] });
    // Nothing journaled since: nothing to publish.
    expect(await compileDelta({ rawDir: raw, outDir: dist })).toBeNull();
  }, 180_000);
});
