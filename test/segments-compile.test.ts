import { beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../src/catalog/catalog.js';
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
