import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { FixedSorter } from './fixed-sort.js';

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
});
