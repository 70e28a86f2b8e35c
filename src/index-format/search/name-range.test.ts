import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactNameRangeOf, nameBytesHash, runByHash, type NameSections } from './name-range.js';
import { Samples, StringTable } from './sorted-strings.js';

/**
 * Names by rank, as the index stores them, with `names.order` and the name table the compile
 * writes (or none).
 */
function sections(names: string[], table: boolean): NameSections {
  const parts = names.map((n) => Buffer.from(n, 'utf8'));
  const offsets = new Uint32Array(names.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i] + p.length));
  const strings = new StringTable(offsets, Buffer.concat(parts), 'test', 'names');
  const order = Uint32Array.from(names.keys()).sort((a, b) => Buffer.compare(parts[a], parts[b]) || a - b);
  const entries: number[][] = [];
  for (let from = 0, pos = 1; pos <= order.length; pos++) {
    if (pos < order.length && names[order[pos]] === names[order[from]]) continue;
    entries.push([nameBytesHash(parts[order[from]]), from, pos]);
    from = pos;
  }
  entries.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return {
    order,
    names: strings,
    samples: new Samples(order.length, (i) => order[i], strings).table,
    table: table ? Uint32Array.from(entries.flat()) : null,
  };
}

/** The range by reading every position: the first name not before `name`, and the first after it. */
function expected(s: NameSections, name: string): { from: number; to: number } {
  const key = Buffer.from(name, 'utf8');
  const at = (pos: number) => s.names.raw(s.order[pos]);
  let from = 0;
  while (from < s.order.length && Buffer.compare(at(from), key) < 0) from++;
  let to = from;
  while (to < s.order.length && Buffer.compare(at(to), key) === 0) to++;
  return { from, to };
}

// Few letters, so that names repeat (runs of every length) and share long prefixes.
const nameArb = fc.array(fc.constantFrom('a', 'b', ' ', 'é'), { maxLength: 4 }).map((chars) => chars.join(''));

describe('exactNameRangeOf', () => {
  it('finds the run of every name, held or not, with the name table and without it', () => {
    fc.assert(
      fc.property(fc.array(nameArb, { minLength: 1, maxLength: 300 }), fc.array(nameArb, { maxLength: 20 }), (names, others) => {
        for (const table of [true, false]) {
          const s = sections(names, table);
          for (const name of [...names, ...others]) expect(exactNameRangeOf(s, name, null), `${table} ${JSON.stringify(name)}`).toEqual(expected(s, name));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('tells apart names whose hashes collide', () => {
    // Two names of the same hash, found by the birthday bound (about 2^16 names for 32 bits).
    const seen = new Map<number, string>();
    let pair: [string, string] | null = null;
    for (let i = 0; pair === null; i++) {
      const name = `name ${i}`;
      const hash = nameBytesHash(Buffer.from(name, 'utf8'));
      const other = seen.get(hash);
      if (other !== undefined) pair = [other, name];
      else seen.set(hash, name);
    }
    const names = [pair[1], 'a', pair[0], pair[1], 'z', pair[0], pair[0]];
    const s = sections(names, true);
    for (const name of [...pair, 'a', 'z', 'name x']) expect(exactNameRangeOf(s, name, null)).toEqual(expected(s, name));
  });

  it('finds any hash of a large table by guesses, uniform or not', () => {
    for (const spread of [(i: number) => (i * 2654435761) >>> 0, (i: number) => i * i, (i: number) => (i < 9_000 ? i : 2 ** 32 - 20_000 + i)]) {
      const hashes = Array.from({ length: 10_000 }, (_, i) => spread(i)).sort((a, b) => a - b);
      const table = Uint32Array.from(hashes.flatMap((h, i) => [h, i, i + 1]));
      for (let i = 0; i < hashes.length; i += 7)
        expect(runByHash(table, hashes[i], (from) => hashes[from] === hashes[i])?.from).toBe(hashes.indexOf(hashes[i]));
      expect(runByHash(table, 2 ** 32 - 1, () => true)).toBeNull();
      expect(runByHash(table, 1, () => true)?.from ?? null).toBe(hashes[1] === 1 ? 1 : hashes.indexOf(1) >= 0 ? hashes.indexOf(1) : null);
    }
  });
});
