import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Catalog } from '../src/catalog/catalog.js';
import { compactSegments } from '../src/compile/delta/compact.js';
import { compileDeltaWithPolicy } from '../src/compile/delta/fold-policy.js';
import { tempDir } from './helpers/raw-fixture.js';
import { everyDisagreement } from './helpers/segment-checks.js';
import { journaledFixture, type JournaledFixture } from './helpers/journaled-fixture.js';

// `omm compile --delta` (docs/segments.md): a delta made from the change journal and a compile of
// the delivery's resources and their neighbours only must read, after each delivery, as the full
// compile of the same raw catalog: records, views, keys, lists, orders, search, match.

describe('a delta compiled from the change journal reads as the full compile', () => {
  const root = tempDir('omm-delta-compile-');
  const found: Record<string, string[]>[] = [];
  let fixture: JournaledFixture;

  beforeAll(async () => {
    fixture = await journaledFixture(root, {}, (_round, full) => found.push(everyDisagreement(fixture?.dist ?? `${root}/dist`, full)));
  }, 180_000);

  it('publishes one delta per delivery, compiling far fewer songs than the catalog has', () => {
    expect(fixture.deltas.map((d) => d?.segments)).toEqual([2, 3]);
    for (const delta of fixture.deltas) {
      expect(delta!.removed.song).toBeGreaterThan(10);
      expect(delta!.compiledSongs).toBeLessThan(2500);
    }
  });

  it('names the raw files as the full compile does (sizes, rows, SHA-256), and the journal position it read to', () => {
    const manifest = (dist: string) => Catalog.open(dist, { searchable: false });
    const seg = manifest(fixture.dist);
    const full = manifest(fixture.fulls[1]);
    try {
      expect(seg.snapshot.manifest.sources).toEqual(full.snapshot.manifest.sources);
      expect(seg.snapshot.manifest.changes).toBe(2);
    } finally {
      seg.close();
      full.close();
    }
  });

  it('reads as the full compile after each delivery', () => {
    const none = { records: [], keys: [], orders: [], search: [], match: [], verify: [] };
    expect(found).toEqual([none, none]);
  });

  it('compacts into the full compile of the raw catalog, byte for byte, and refuses another raw catalog', async () => {
    await expect(compactSegments({ outDir: fixture.dist, rawDir: fixture.raws[0] })).rejects.toThrow(/E_DELTA_INPUT/);
    const compacted = await compactSegments({ outDir: fixture.dist, rawDir: fixture.raws[1] });
    const [seg, full] = [fixture.dist, fixture.fulls[1]].map((dist) => Catalog.open(dist, { searchable: false }));
    try {
      expect(compacted!.buildId).toBe(full.snapshot.manifest.buildId);
      expect(seg.snapshot.manifest).toEqual(full.snapshot.manifest);
      for (const shard of full.snapshot.manifest.shards) {
        expect(readFileSync(join(seg.snapshot.dir, shard.file)).equals(readFileSync(join(full.snapshot.dir, shard.file))), shard.file).toBe(true);
      }
    } finally {
      seg.close();
      full.close();
    }
    expect(await compactSegments({ outDir: fixture.dist, rawDir: fixture.raws[1] })).toBeNull();
  });
});

describe('past the most deltas the policy allows, the next delivery folds them', () => {
  const root = tempDir('omm-delta-fold-');

  it('compiles in full once the snapshot has that many deltas, reading as the full compile throughout', async () => {
    const kinds: string[] = [];
    const found: Record<string, string[]>[] = [];
    const compile = async (rawDir: string, outDir: string) => {
      const outcome = await compileDeltaWithPolicy({ rawDir, outDir, maxDeltas: 2 });
      kinds.push(outcome?.kind ?? 'none');
      return outcome?.kind === 'delta' ? outcome.delta : null;
    };
    const builds: string[][] = [];
    const buildOf = (dist: string) => {
      const cat = Catalog.open(dist, { searchable: false });
      try {
        return cat.snapshot.manifest.buildId;
      } finally {
        cat.close();
      }
    };
    await journaledFixture(root, { songs: 800, seed: 3, rounds: 3, compile }, (_round, full) => {
      // Folded, the snapshot in service is the full compile itself.
      if (kinds.at(-1) === 'folded') builds.push([buildOf(`${root}/dist`), buildOf(full)]);
      else found.push(everyDisagreement(`${root}/dist`, full));
    });
    expect(kinds).toEqual(['delta', 'delta', 'folded']);
    const none = { records: [], keys: [], orders: [], search: [], match: [], verify: [] };
    expect(found).toEqual([none, none]);
    expect(builds[0][0]).toBe(builds[0][1]);
  }, 180_000);
});

describe("artists without genres of their own take their songs' over a delta", () => {
  const root = tempDir('omm-delta-compile-genres-');
  const found: Record<string, string[]>[] = [];

  it('reads as the full compile after each delivery', async () => {
    await journaledFixture(root, { songs: 1500, seed: 11, withoutOwnGenres: 2 }, (_round, full) => found.push(everyDisagreement(`${root}/dist`, full)));
    const none = { records: [], keys: [], orders: [], search: [], match: [], verify: [] };
    expect(found).toEqual([none, none]);
  }, 180_000);
});
