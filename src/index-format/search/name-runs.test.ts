import { describe, expect, it } from 'vitest';
import { hashKey } from '../tables/key-table.js';
import { nameRunCapacity, NameRuns, nameRunTable } from './name-runs.js';

/** Names in order, each with its run; `at(from)` is the name a run starts with. */
function runsOf(names: string[]) {
  const froms = names.map((_, i) => i * 10);
  const tos = names.map((_, i) => i * 10 + 5 + i);
  const runs = new NameRuns(
    nameRunTable(
      names.map((n) => hashKey(n)),
      froms,
      tos,
    ),
    '(test)',
  );
  const at = (from: number) => (from % 10 === 0 ? names[from / 10] : undefined);
  return { runs, find: (name: string) => runs.find(name, (from) => at(from) === name), froms, tos };
}

describe('name runs (runs.hash)', () => {
  it('finds every stored name, past the slots others took from the same home', () => {
    // 200 names in a table of 512 slots: many share a home slot and probe on.
    const names = Array.from({ length: 200 }, (_, i) => `name ${i}`);
    const { find, froms, tos } = runsOf(names);
    const homes = new Set(names.map((n) => hashKey(n) & (nameRunCapacity(200) - 1)));
    expect(homes.size).toBeLessThan(names.length);
    names.forEach((n, i) => expect(find(n)).toEqual({ from: froms[i], to: tos[i] }));
  });

  it('says null for a name it does not hold, and for one whose hash alone agrees', () => {
    const { runs, find } = runsOf(['love', 'intro', 'silent night']);
    expect(find('hello')).toBeNull();
    expect(find('lov')).toBeNull();
    // Every probe's name check fails: a slot whose hash agrees is still another name's.
    expect(runs.find('love', () => false)).toBeNull();
  });

  it('refuses a section that is no table of slots', () => {
    expect(() => new NameRuns(new Uint32Array(3 * 12), '(test)')).toThrow(/runs.hash/);
    expect(() => new NameRuns(new Uint32Array(3 * 16 + 1), '(test)')).toThrow(/runs.hash/);
  });

  it('sizes the table at most half full', () => {
    expect(nameRunCapacity(0)).toBe(16);
    expect(nameRunCapacity(8)).toBe(16);
    expect(nameRunCapacity(9)).toBe(32);
    expect(nameRunCapacity(140_000)).toBe(524_288);
  });
});
