import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FixedSorter } from '../../sort/fixed-sort.js';
import { joinTokens } from './token-join.js';

const dir = mkdtempSync(join(tmpdir(), 'omm-token-join-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sorter(name: string, records: number[][]): FixedSorter {
  const s = new FixedSorter(dir, name, 3, 2, 1);
  for (const [a, b, c] of records) s.add(a, b, c);
  return s;
}

describe('joinTokens', () => {
  it('gives each occurrence the term of its hash', () => {
    const byToken = new FixedSorter(dir, 'by-token', 2, 1, 1);
    joinTokens(
      sorter('occ', [
        [5, 1, 0],
        [2, 9, 1],
        [5, 1, 2],
      ]),
      sorter('terms', [
        [2, 9, 0],
        [5, 1, 1],
      ]),
      byToken,
    );
    const out: number[][] = [];
    byToken.drain((w, at) => out.push([w[at], w[at + 1]]));
    expect(out).toEqual([
      [0, 1],
      [1, 0],
      [2, 1],
    ]);
  });

  it('stops when two terms share a 64-bit hash, wherever they sort', () => {
    const byToken = () => new FixedSorter(dir, 'by-token', 2, 1, 1);
    expect(() =>
      joinTokens(
        sorter('occ', [[5, 1, 0]]),
        sorter('terms', [
          [5, 1, 0],
          [5, 1, 1],
        ]),
        byToken(),
      ),
    ).toThrow(/terms 0 and 1 share a 64-bit hash/);
    expect(() =>
      joinTokens(
        sorter('occ', [[1, 1, 0]]),
        sorter('terms', [
          [1, 1, 0],
          [7, 7, 1],
          [7, 7, 2],
        ]),
        byToken(),
      ),
    ).toThrow(/terms 1 and 2 share/);
  });
});
