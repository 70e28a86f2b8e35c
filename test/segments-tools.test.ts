import { spawnSync } from 'node:child_process';
import { openSync, readSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../src/catalog/catalog.js';
import { diffCatalogs } from '../src/diff/snapshot-diff.js';
import { Snapshot, verifySnapshot } from '../src/index-format/index.js';
import { takedown } from '../src/takedown/takedown.js';
import { tempDir } from './helpers/raw-fixture.js';
import { segmentedFixture, type SegmentedFixture } from './helpers/segmented-fixture.js';

// inspect, verify, diff and takedown on a segmented snapshot (docs/segments.md).

const omm = fileURLToPath(new URL('../bin/omm', import.meta.url));

describe('the tools over a segmented snapshot', () => {
  const root = tempDir('omm-segments-tools-');
  let fixture: SegmentedFixture;
  let baseDir: string;

  beforeAll(async () => {
    fixture = await segmentedFixture(root, { songs: 1200, seed: 3, rounds: 1 });
    const snapshot = Snapshot.open(fixture.dist);
    baseDir = join(snapshot.dir, '..', snapshot.manifest.segments![0].buildId);
    snapshot.close();
  }, 120_000);

  it('inspect lists the segments, what each delta holds and takes out, and each shard\u2019s segment', () => {
    const r = spawnSync(process.execPath, [omm, 'inspect', fixture.dist], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/segment 0 {2}base {2}build [0-9a-f]{16}/);
    expect(r.stdout).toMatch(/segment 1 {2}delta build [0-9a-f]{16} .*: holds songs \d[\d,]*, albums \d+, artists \d+; takes out songs \d+/);
    expect(r.stdout).toMatch(/d1-songs\.0000\.rec .* 1\n/);
  });

  it('diff from the base counts what the full compile\u2019s diff counts', () => {
    const [base, seg, full] = [Catalog.open(baseDir), Catalog.open(fixture.dist), Catalog.open(fixture.fulls[0])];
    try {
      const a = diffCatalogs(base, seg);
      const b = diffCatalogs(base, full);
      expect(a.totals).toEqual(b.totals);
      expect(a.totals.removed).toBeGreaterThan(0);
      expect(a.totals.added).toBeGreaterThan(0);
      for (const type of Object.keys(a.types) as (keyof typeof a.types)[])
        expect({ ...a.types[type], samples: null }).toEqual({ ...b.types[type], samples: null });
      expect(a.genres).toEqual(b.genres);
    } finally {
      for (const c of [base, seg, full]) c.close();
    }
  });

  it('verify checks every segment: a flipped byte in a delta shard is found', () => {
    expect(verifySnapshot(fixture.dist).problems).toEqual([]);
    const snapshot = Snapshot.open(fixture.dist);
    const file = join(snapshot.dir, 'd1-songs.0000.rec');
    snapshot.close();
    const fd = openSync(file, 'r+');
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, 200);
    writeSync(fd, Buffer.from([byte[0] ^ 0xff]), 0, 1, 200);
    try {
      const problems = verifySnapshot(fixture.dist).problems;
      expect(problems.map((p) => p.file)).toEqual(['d1-songs.0000.rec']);
    } finally {
      writeSync(fd, byte, 0, 1, 200);
      closeSync(fd);
    }
    expect(verifySnapshot(fixture.dist).problems).toEqual([]);
  });

  it('takedown refuses a segmented snapshot, saying what to do instead, and publishes nothing', () => {
    const before = Snapshot.open(fixture.dist);
    const id = before.buildId;
    before.close();
    expect(() => takedown(fixture.dist, [{ kind: 'isrc', value: 'US0000900000' }])).toThrow(/made of 2 segments: apply the takedown with omm import --into/);
    const after = Snapshot.open(fixture.dist);
    expect(after.buildId).toBe(id);
    after.close();
  });
});
