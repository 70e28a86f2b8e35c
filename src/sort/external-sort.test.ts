import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExternalSorter } from './external-sort.js';

const spillDir = () => mkdtempSync(join(tmpdir(), 'omm-sort-'));
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** Sorts through the sorter; returns [key hex, value] pairs in output order and the runs it wrote. */
function throughSorter(keys: Buffer[], budget: number): { out: [string, number][]; runs: number; left: string[] } {
  const dir = spillDir();
  const sorter = new ExternalSorter(dir, 'test', budget);
  keys.forEach((k, i) => sorter.add(k, u32(i)));
  const runs = sorter.runCount;
  const out: [string, number][] = [];
  for (const { key, value } of sorter.sorted()) out.push([key.toString('hex'), value.readUInt32BE(0)]);
  return { out, runs, left: readdirSync(dir) };
}

/** The expected order: bytes, then insertion order. */
const reference = (keys: Buffer[]): [string, number][] =>
  keys
    .map((k, i) => [k, i] as const)
    .sort((a, b) => Buffer.compare(a[0], b[0]) || a[1] - b[1])
    .map(([k, i]) => [k.toString('hex'), i]);

describe('ExternalSorter', () => {
  it('merges many runs in layers of at most 8 when the budget allows no more at once: same order, ties stable, no run files left', () => {
    let x = 7;
    const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
    // 70 arenas' worth of records (1,024 each under the smallest budget): 70 runs, merged 70 -> 9 -> 2 before the last merge.
    const keys = Array.from({ length: 70 * 1024 + 500 }, () => u32(next() % 5000));
    const { out, runs, left } = throughSorter(keys, 1);
    expect(runs).toBe(70);
    expect(out).toEqual(reference(keys));
    expect(left).toEqual([]);
  });

  it('sorts by key bytes, ties in insertion order, across many spilled runs, and removes its runs', () => {
    const sizes: number[] = [];
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ minLength: 0, maxLength: 40 }), { minLength: 0, maxLength: 6000, size: 'max' }), (arrays) => {
        const keys = arrays.map((a) => Buffer.from(a));
        // Shared prefixes and exact duplicates are where a prefix shortcut or an unstable merge goes wrong.
        for (let i = 0; i + 1 < keys.length; i += 7) keys[i + 1] = Buffer.concat([keys[i], Buffer.from([i % 3])]);
        for (let i = 0; i + 2 < keys.length; i += 11) keys[i + 2] = keys[i];
        const { out, runs, left } = throughSorter(keys, 1); // the smallest arena: 64 KiB, 1,024 records
        expect(out).toEqual(reference(keys));
        // The arena holds at most 1,024 records: every full one became a run.
        expect(runs).toBeGreaterThanOrEqual(Math.ceil(keys.length / 1024) - 1);
        sizes.push(keys.length);
        expect(left).toEqual([]);
      }),
      { numRuns: 40, seed: 19, endOnFailure: true },
    );
    expect(Math.max(...sizes)).toBeGreaterThan(4000);
  });

  it('sorts name-like keys in arenas of thousands of records (radix passes, ranges tying word after word) across runs', () => {
    const words = ['love', 'the', 'night', 'love the', 'a', 'heart', ''];
    let x = 5;
    const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
    const keys = Array.from({ length: 40_000 }, (_, i) => {
      const parts: string[] = [];
      for (let w = next() % 5; w >= 0; w--) parts.push(words[next() % words.length]);
      return Buffer.concat([Buffer.from(parts.join(' ')), Buffer.from([0]), u32(i % 4 === 0 ? 7 : next() % 500)]);
    });
    // 700 KB: arenas of about 8,000 records.
    const { out, runs, left } = throughSorter(keys, 700_000);
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(out).toEqual(reference(keys));
    expect(left).toEqual([]);
  });

  it('drains the same records in the same order as it iterates them, across runs', () => {
    const keys = Array.from({ length: 9000 }, (_, i) => u32((i * 2654435761) % 977));
    const drained: [string, number][] = [];
    const sorter = new ExternalSorter(spillDir(), 'drain', 1);
    keys.forEach((k, i) => sorter.add(k, u32(i)));
    expect(sorter.runCount).toBeGreaterThan(5);
    sorter.drain((buffer, keyStart, keyEnd, valueEnd) => {
      expect(valueEnd - keyEnd).toBe(4);
      drained.push([buffer.toString('hex', keyStart, keyEnd), buffer.readUInt32BE(keyEnd)]);
    });
    expect(drained).toEqual(reference(keys));
  });

  it('keeps records larger than its read and write blocks whole', () => {
    const big = (fill: number, bytes: number) => Buffer.alloc(bytes, fill);
    const dir = spillDir();
    const sorter = new ExternalSorter(dir, 'big', 12 << 20);
    const values = [big(3, 3 << 20), big(1, 10), big(2, (1 << 20) + 5), big(0, 2 << 20)];
    // Force a run between the records so large values go through a run file.
    values.forEach((v, i) => {
      sorter.add(u32(values.length - i), v);
      if (i === 1) (sorter as unknown as { spill(): void }).spill();
    });
    const out = [...sorter.sorted()].map(({ key, value }) => [key.readUInt32BE(0), value.length, value[0], value[value.length - 1]]);
    expect(out).toEqual([
      [1, 2 << 20, 0, 0],
      [2, (1 << 20) + 5, 2, 2],
      [3, 10, 1, 1],
      [4, 3 << 20, 3, 3],
    ]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('removes its runs when reading stops early, and refuses a record larger than its arena', () => {
    const dir = spillDir();
    const sorter = new ExternalSorter(dir, 'early', 1);
    for (let i = 0; i < 5000; i++) sorter.add(u32((i * 7919) % 5000));
    expect(readdirSync(dir).length).toBe(4);
    for (const { key } of sorter.sorted()) {
      expect(key.readUInt32BE(0)).toBe(0);
      break;
    }
    expect(readdirSync(dir)).toEqual([]);
    expect(() => new ExternalSorter(dir, 'small', 1).add(Buffer.alloc(70_000))).toThrow(/exceeds the arena/);
  });
});
