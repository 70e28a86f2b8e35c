import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { FixedSorter, mergeReadRecords } from './fixed-sort.js';

describe('FixedSorter', () => {
  it('orders records by their key words as unsigned numbers, ties in insertion order, across many runs, and removes its runs', () => {
    const sizes: number[] = [];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 65535, 65536), fc.nat({ max: 300 })), { maxLength: 8000, size: 'max' }),
        fc.integer({ min: 1, max: 3 }),
        (keys, width) => {
          const dir = mkdtempSync(join(tmpdir(), 'omm-fixed-'));
          const keyWords = Math.min(2, width);
          const sorter = new FixedSorter(dir, 'test', width, keyWords, 1); // 1,024 records an arena
          keys.forEach(([hi, lo], i) => sorter.add(hi, lo, i));
          expect(sorter.runCount).toBe(Math.max(0, Math.ceil(keys.length / 1024) - 1));
          const out: number[][] = [];
          sorter.drain((words, at) => out.push(Array.from(words.subarray(at, at + width))));
          const expected = keys
            .map(([hi, lo], i) => [hi, lo, i].slice(0, width))
            .map((r, i) => ({ r, i }))
            .sort((a, b) => {
              for (let k = 0; k < keyWords; k++) if (a.r[k] !== b.r[k]) return a.r[k] - b.r[k];
              return a.i - b.i;
            })
            .map(({ r }) => r);
          expect(out).toEqual(expected);
          expect(readdirSync(dir)).toEqual([]);
          sizes.push(keys.length);
        },
      ),
      { numRuns: 30, seed: 5, endOnFailure: true },
    );
    expect(Math.max(...sizes)).toBeGreaterThan(5000);
  });

  it('hands off to another thread what it holds (runs and arena), and the sorter resumed there gives the same order and removes the runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omm-fixed-'));
    const sorter = new FixedSorter(dir, 'handed', 2, 1, 1); // 1,024 records an arena
    const n = 5000;
    for (let i = 0; i < n; i++) sorter.add((i * 7919) % 613, i);
    expect(sorter.runCount).toBe(4);
    const state = sorter.handOff();
    expect(() => sorter.add(1, 1)).toThrow(/after reading began/);
    // Through a real structured clone, the arena's buffer transferred.
    const { port1, port2 } = new MessageChannel();
    const received = new Promise<typeof state>((resolve) => port2.once('message', resolve));
    port1.postMessage(state, [state.arena.buffer as ArrayBuffer]);
    const resumed = FixedSorter.resume(await received);
    port1.close();
    const out: number[][] = [];
    resumed.drain((words, at) => out.push([words[at], words[at + 1]]));
    const expected = Array.from({ length: n }, (_, i) => [(i * 7919) % 613, i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    expect(out).toEqual(expected);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('stops its arena at 4 MiB however large the budget, and merges within the budget however many runs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omm-fixed-'));
    const sorter = new FixedSorter(dir, 'capped', 4, 4, 2 ** 30);
    const perArena = (4 * 2 ** 20) / 16;
    for (let i = 0; i < 2 * perArena + 1; i++) sorter.add(i % 977, i, 0, 0);
    expect(sorter.runCount).toBe(2);
    let n = 0;
    let last = -1;
    sorter.drain((words, at) => {
      expect(words[at]).toBeGreaterThanOrEqual(last);
      last = words[at];
      n++;
    });
    expect(n).toBe(2 * perArena + 1);
    expect(readdirSync(dir)).toEqual([]);
    // Read blocks: the budget split among the runs, 16 to 512 KiB each.
    expect(mergeReadRecords(29 * 2 ** 20, 190, 4) * 16).toBe(Math.floor((29 * 2 ** 20) / 190 / 16) * 16);
    expect(mergeReadRecords(2 ** 30, 3, 4) * 16).toBe(512 * 2 ** 10);
    expect(mergeReadRecords(2 ** 20, 1000, 2) * 8).toBe(16 * 2 ** 10);
  });
});
