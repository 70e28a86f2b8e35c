import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SHARD_KINDS } from '../index-format/constants.js';
import { hashKey, KeyTable, KeyTableBuilder, keyTableCapacity, type KeyTableMeta } from '../index-format/tables/key-table.js';
import { openShard } from '../index-format/shards/shard-reader.js';
import { KeyTableSink } from './key-table-sink.js';
import { SpillDir } from './spill/spill-dir.js';

const root = mkdtempSync(join(tmpdir(), 'omm-key-sink-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A budget this small gives the sorters 1,024 records a run, so a few thousand adds merge many runs. */
const TINY_BUDGET = 64 * 1024;

let tables = 0;

/** Writes the same adds through KeyTableSink and KeyTableBuilder; opens both. */
function writeBoth(adds: readonly (readonly [string, number])[], budget = TINY_BUDGET) {
  const dir = join(root, `t${tables++}`);
  const spill = SpillDir.create(dir);
  const sink = new KeyTableSink('song.id', spill, budget);
  const builder = new KeyTableBuilder('song.id');
  for (const [key, value] of adds) {
    sink.add(key, value);
    builder.add(key, value);
  }
  const sinkPath = join(dir, 'sink.keys');
  const builderPath = join(dir, 'builder.keys');
  sink.write(sinkPath, 'build-1');
  builder.write(builderPath, 'build-1');
  const leftOver = readdirSync(spill.path);
  spill.remove();
  const sinkShard = openShard(sinkPath, SHARD_KINDS.keys);
  const builderShard = openShard(builderPath, SHARD_KINDS.keys);
  return {
    sinkPath,
    leftOver,
    sinkMeta: sinkShard.meta as unknown as KeyTableMeta,
    builderMeta: builderShard.meta as unknown as KeyTableMeta,
    sunk: new KeyTable(sinkShard),
    built: new KeyTable(builderShard),
    close: () => (sinkShard.file.close(), builderShard.file.close()),
  };
}

/** Every key looks up the same in both tables, a few absent keys miss, and the metadata agree. */
function expectSameTable(adds: readonly (readonly [string, number])[], budget = TINY_BUDGET): ReturnType<typeof writeBoth> {
  const both = writeBoth(adds, budget);
  const { sunk, built } = both;
  expect(both.leftOver).toEqual([]);
  expect(both.sinkMeta).toEqual(both.builderMeta);
  expect(both.sinkMeta.count).toBe(new Set(adds.map(([k]) => k)).size);
  expect(both.sinkMeta.capacity).toBe(keyTableCapacity(both.sinkMeta.count));
  const expected = new Map<string, number[]>();
  for (const [key, value] of adds) expected.set(key, [...(expected.get(key) ?? []), value]);
  for (const [key, values] of expected) {
    expect(sunk.getAll(key)).toEqual(values);
    expect(sunk.getAll(key)).toEqual(built.getAll(key));
    expect(sunk.get(key)).toBe(values[0]);
  }
  for (const miss of ['', 'absent', 'ü-absent', 'x'.repeat(256), ...[...expected.keys()].slice(0, 50).map((k) => `${k}\u0000`)]) {
    if (expected.has(miss)) continue;
    expect(sunk.getAll(miss)).toEqual([]);
    expect(sunk.get(miss)).toBe(-1);
  }
  return both;
}

/** Keys from a small alphabet with shared prefixes, accents, CJK and astral characters. */
const keyArbitrary = fc
  .oneof(
    fc.stringMatching(/^[a-c]{1,6}$/),
    fc
      .tuple(fc.constantFrom('song-', 'USRC1', 'omm:song:', 'é', '日本', '\u{1F3B5}'), fc.nat({ max: 3000 }))
      .map(([prefix, n]) => `${prefix}${n.toString(36)}`),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
  )
  .filter((key) => Buffer.from(key, 'utf8').toString('utf8') === key); // lone surrogates cannot be stored as UTF-8

/** Strings `<prefix><n>` whose home slot in a table of `capacity` is one of the last `last` slots. */
function keysHomedNearTheEnd(prefix: string, capacity: number, last: number, wanted: number): string[] {
  const out: string[] = [];
  for (let n = 0; out.length < wanted; n++) {
    const key = `${prefix}${n}`;
    if ((hashKey(key) & (capacity - 1)) >= capacity - last) out.push(key);
  }
  return out;
}

describe('KeyTableSink', () => {
  it('looks up every key as KeyTableBuilder does across many spilled runs: non-ASCII, shared prefixes, duplicates with several values', () => {
    const sizes: number[] = [];
    fc.assert(
      fc.property(fc.array(fc.tuple(keyArbitrary, fc.nat({ max: 0xffffffff })), { maxLength: 6000, size: 'max' }), fc.nat({ max: 4 }), (pairs, dupEvery) => {
        // Some keys come back with other values, some many times.
        const adds: [string, number][] = [];
        pairs.forEach(([key, value], i) => {
          adds.push([key, value]);
          if (dupEvery > 0 && i % (dupEvery + 1) === 0 && adds.length > 1) adds.push([adds[(i * 7) % adds.length][0], i]);
        });
        expectSameTable(adds).close();
        sizes.push(adds.length);
      }),
      { numRuns: 25, seed: 19, endOnFailure: true },
    );
    expect(Math.max(...sizes)).toBeGreaterThan(5000);
  });

  it('wraps the entries that run past the last slot into the first empty slots', () => {
    // 1,200 keys make a table of 2,048 slots; 1,000 of them are homed in the last 8 slots.
    const capacity = keyTableCapacity(1200);
    expect(capacity).toBe(2048);
    const nearEnd = keysHomedNearTheEnd('wrap-', capacity, 8, 1000);
    const others = Array.from({ length: 200 }, (_, i) => `other-${i}`);
    const adds = [...nearEnd, ...others].map((key, i) => [key, i] as const);
    const { sunk, sinkMeta, sinkPath, close } = expectSameTable([...adds, ...adds.slice(0, 100).map(([key, v]) => [key, v + 5000] as const)]);
    expect(sinkMeta.capacity).toBe(capacity);
    expect(sunk.getAll(nearEnd[999])).toEqual([999]);
    expect(wrappedSlots(sinkPath)).toBeGreaterThan(900);
    close();
  });

  it('wraps when every key is homed in the very last slot', () => {
    const capacity = keyTableCapacity(600);
    const keys = keysHomedNearTheEnd('last-', capacity, 1, 600);
    const { sinkPath, close } = expectSameTable(keys.map((key, i) => [key, i] as const));
    expect(wrappedSlots(sinkPath)).toBe(599);
    close();
  });

  it('keeps apart two keys that share a 32-bit hash', () => {
    const seen = new Map<number, string>();
    const colliding: string[] = [];
    for (let n = 0; colliding.length < 6; n++) {
      const key = `isrc${n.toString(36)}`;
      const other = seen.get(hashKey(key));
      if (other !== undefined) colliding.push(other, key);
      else seen.set(hashKey(key), key);
    }
    expect(hashKey(colliding[0])).toBe(hashKey(colliding[1]));
    // Interleaved with duplicates, so one hash group holds several values of several keys.
    const adds: [string, number][] = [];
    colliding.forEach((key, i) => adds.push([key, i], [colliding[i ^ 1], 100 + i], [key, 200 + i]));
    for (let i = 0; i < 3000; i++) adds.push([`fill-${i}`, i]);
    expectSameTable(adds).close();
  });

  it('writes an empty table', () => {
    const { sinkMeta, sunk, close } = expectSameTable([]);
    expect(sinkMeta).toEqual({ name: 'song.id', count: 0, capacity: 16 });
    expect(sunk.get('a')).toBe(-1);
    close();
  });

  it('writes the same bytes for the same adds, whatever the budget', () => {
    const adds = Array.from({ length: 5000 }, (_, i) => [`s${((i * 2654435761) >>> 0).toString(36)}`, i % 977] as const);
    const small = writeBoth(adds, TINY_BUDGET);
    const again = writeBoth(adds, TINY_BUDGET);
    const large = writeBoth(adds, 64 * 2 ** 20);
    const bytes = readFileSync(small.sinkPath);
    expect(readFileSync(again.sinkPath).equals(bytes)).toBe(true);
    expect(readFileSync(large.sinkPath).equals(bytes)).toBe(true);
    for (const t of [small, again, large]) t.close();
  });

  it('refuses keys as KeyTableBuilder does, and values that are not u32', () => {
    const spill = SpillDir.create(join(root, `t${tables++}`));
    const sink = new KeyTableSink('song.isrc', spill, TINY_BUDGET);
    const builder = new KeyTableBuilder('song.isrc');
    for (const key of ['', 'x'.repeat(256), 'é'.repeat(128), '日'.repeat(86)]) {
      expect(() => builder.add(key, 1)).toThrow();
      expect(() => sink.add(key, 1)).toThrow(captureMessage(() => builder.add(key, 1)));
    }
    for (const ok of ['x'.repeat(255), 'é'.repeat(127), '日'.repeat(85)]) expect(() => sink.add(ok, 1)).not.toThrow();
    for (const bad of [-1, 1.5, 2 ** 32, Number.NaN]) expect(() => sink.add('a', bad)).toThrow(RangeError);
    sink.dispose();
    expect(readdirSync(spill.path)).toEqual([]);
    spill.remove();
  });

  it('removes its scratch files when writing fails', () => {
    const spill = SpillDir.create(join(root, `t${tables++}`));
    const sink = new KeyTableSink('song.omm', spill, TINY_BUDGET);
    for (let i = 0; i < 5000; i++) sink.add(`k${i}`, i);
    expect(readdirSync(spill.path).length).toBeGreaterThan(3); // key column and spilled runs
    expect(() => sink.write(join(root, 'no-such-dir', 'x.keys'), 'b')).toThrow();
    expect(readdirSync(spill.path)).toEqual([]);
    expect(() => sink.add('k', 1)).toThrow(/add after write/);
    spill.remove();
  });
});

/** Slots holding an entry homed after them: entries that wrapped past the end of the table. */
function wrappedSlots(path: string): number {
  const shard = openShard(path, SHARD_KINDS.keys);
  const { start, length } = shard.section('slots');
  const slots = shard.bytes(start, length);
  const mask = length / 8 - 1;
  let wrapped = 0;
  for (let slot = 0; slot <= mask; slot++) {
    if (slots.readUInt32LE(slot * 8 + 4) !== 0 && (slots.readUInt32LE(slot * 8) & mask) > slot) wrapped++;
  }
  shard.file.close();
  return wrapped;
}

function captureMessage(run: () => void): string {
  try {
    run();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('did not throw');
}
