import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../src/catalog/catalog.js';
import { compileDelta } from '../src/compile/delta/compile-delta.js';
import { OwnerRows } from '../src/compile/delta/owner-rows.js';
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

    // The import's files read by owner (owner-rows.ts), and the same raw catalog copied (its files'
    // facts no longer hold: new inodes and times) read and hashed in full: the same delta.
    expect(new OwnerRows(raw).holds('songs')).toBe(true);
    const copied = join(root, 'raw-copied');
    const scanned = join(root, 'dist-scanned');
    cpSync(raw, copied, { recursive: true });
    cpSync(dist, scanned, { recursive: true });
    expect(new OwnerRows(copied).holds('songs')).toBe(false);
    const delta = await compileDelta({ rawDir: raw, outDir: dist });
    expect(delta?.segments).toBe(2);
    await compileDelta({ rawDir: copied, outDir: scanned });
    const manifestOf = (d: string) => {
      const catalog = Catalog.open(d);
      try {
        return catalog.snapshot.manifest;
      } finally {
        catalog.close();
      }
    };
    expect(manifestOf(dist)).toEqual(manifestOf(scanned));
    expect(delta!.removed.album).toBeGreaterThan(0);
    const full = join(root, 'full');
    await compileCatalog({ rawDir: raw, outDir: full });
    expect(everyDisagreement(dist, full)).toEqual({ records: [], keys: [], orders: [], search: [], match: [], verify: [] });
    expect(manifestOf(dist).sources).toEqual(manifestOf(full).sources);
    // Nothing journaled since: nothing to publish.
    expect(await compileDelta({ rawDir: raw, outDir: dist })).toBeNull();
  }, 180_000);
});
