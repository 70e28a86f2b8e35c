import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SearchIndex } from '../index-format/search/search-index.js';
import { writeSearchIndex } from '../../test/helpers/search-columns.js';
import { openShard } from '../index-format/shards/shard-reader.js';
import { RankMarks } from './rank-marks.js';

describe('RankMarks (the ranks a query has marked)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'omm-rank-marks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const count = 5000;
  writeSearchIndex(join(dir, 'search.blob'), 'b1', {
    type: 'song',
    ordinals: Uint32Array.from({ length: count }, (_, i) => i),
    names: Array.from({ length: count }, (_, i) => `song ${i}`),
  });
  const index = new SearchIndex(openShard(join(dir, 'search.blob')));

  it('marks, tests, lists in order and clears, past its first list', () => {
    const marks = RankMarks.of(index);
    const ranks = Array.from({ length: 3000 }, (_, i) => (i * 7919) % count);
    for (const r of ranks) expect(marks.add(r)).toBe(true);
    expect(marks.add(ranks[10])).toBe(false);
    expect(marks.size).toBe(3000);
    const listed: number[] = [];
    marks.forEach((r) => listed.push(r));
    expect(listed).toEqual(ranks);
    const set = new Set(ranks);
    for (let r = 0; r < count; r++) expect(marks.has(r)).toBe(set.has(r));
    marks.clear();
    for (let r = 0; r < count; r++) expect(marks.has(r)).toBe(false);
    expect(marks.size).toBe(0);
    // Cleared, the same marks serve the next query.
    expect(RankMarks.of(index)).toBe(marks);
  });

  it('refuses to hand out marks that are in use', () => {
    const marks = RankMarks.of(index);
    marks.add(1);
    expect(() => RankMarks.of(index)).toThrow(/in use/);
    marks.clear();
    expect(() => RankMarks.of(index)).not.toThrow();
  });
});
