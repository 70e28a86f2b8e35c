import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/raw-fixture.js';
import { everyDisagreement } from './helpers/segment-checks.js';
import { segmentedFixture, type SegmentedFixture } from './helpers/segmented-fixture.js';

// The read model over a segmented snapshot (docs/segments.md): a base plus deltas, each delta
// made from a full compile of the catalog after a delivery, must read, resource by resource,
// what that full compile reads: records, stored views, every key, every relationship list.

describe('a segmented snapshot reads as the full compile of the same catalog', () => {
  const root = tempDir('omm-segments-');
  const found: Record<string, string[]>[] = [];
  let fixture: SegmentedFixture;

  beforeAll(async () => {
    fixture = await segmentedFixture(root, {}, (_round, full) => found.push(everyDisagreement(join(root, 'dist'), full)));
  }, 120_000);

  it('each delivery becomes one delta segment that reads as its full compile', () => {
    expect(fixture.published.map((p) => p.segments)).toEqual([2, 3]);
    for (const delta of fixture.published) {
      expect(delta.plan.song.removed.length).toBeGreaterThan(10);
      expect(delta.plan.song.held.length).toBeLessThan(800);
    }
    const none = { records: [], keys: [], orders: [], search: [], match: [], verify: [] };
    expect(found).toEqual([none, none]);
  });
});
