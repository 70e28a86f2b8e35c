import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { inMemoryEntityOrders, type InMemoryOrders as EntityOrders } from '../../../test/helpers/in-memory-orders.js';
import { mapF64Column, NumberColumnWriter, StringColumn, StringColumnWriter } from '../spill/columns.js';
import { SpillDir } from '../spill/spill-dir.js';
import { addReleaseOrders, buildEntityOrders, continueEntityOrders, startEntityOrders, type EntityOrderFiles } from './entity-orders.js';

const root = mkdtempSync(join(tmpdir(), 'omm-entity-orders-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Small enough that every sorter spills a run per 1,024 records and ranks are inverted 1,024 ordinals a pass. */
const TINY_BUDGET = 4096;

interface Entity {
  id: string;
  name: string;
  dateAdded: number;
  popularity: number;
  releaseDate: number;
}

/** The oracle: the former in-memory orders on the same entities, as songs (with release orders) and as artists (without). */
function derived(entities: Entity[]): { songs: EntityOrders; artists: EntityOrders } {
  const columns = {
    ids: entities.map((e) => e.id),
    names: entities.map((e) => e.name),
    dateAdded: entities.map((e) => e.dateAdded),
    popularity: entities.map((e) => e.popularity),
  };
  return { songs: inMemoryEntityOrders({ ...columns, releaseDate: entities.map((e) => e.releaseDate) }), artists: inMemoryEntityOrders(columns) };
}

/** Writes the entities' columns as the compile will hand them over: string columns and mapped f64 columns. */
function columnsOf(entities: Entity[], dir: string) {
  const strings = (name: string, values: string[]) => {
    const w = new StringColumnWriter(join(dir, name));
    for (const v of values) w.push(v);
    w.finish();
    return StringColumn.open(join(dir, name));
  };
  const numbers = (name: string, values: number[]) => {
    const w = new NumberColumnWriter(join(dir, name), 'f64');
    for (const v of values) w.push(v);
    w.finish();
    return mapF64Column(join(dir, name));
  };
  return {
    count: entities.length,
    ids: strings(
      'ids',
      entities.map((e) => e.id),
    ),
    names: strings(
      'names',
      entities.map((e) => e.name),
    ),
    dateAdded: numbers(
      'date-added',
      entities.map((e) => e.dateAdded),
    ),
    popularity: numbers(
      'popularity',
      entities.map((e) => e.popularity),
    ),
    releaseDate: numbers(
      'release-date',
      entities.map((e) => e.releaseDate),
    ),
  };
}

function readU32(path: string): number[] {
  const bytes = readFileSync(path);
  return Array.from(new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
}

/** Every file equal to the oracle's array, value for value (the first difference named). */
function expectSame(files: EntityOrderFiles, oracle: EntityOrders): void {
  const same = (what: string, path: string, expected: Uint32Array) => {
    const actual = readU32(path);
    const at = actual.findIndex((v, i) => v !== expected[i]);
    expect(at === -1 && actual.length === expected.length ? 'same' : `${what} differs at ${at} of ${expected.length} (length ${actual.length})`).toBe('same');
  };
  same('idRank', files.idRank, oracle.idRank);
  expect([...files.orders.keys()]).toEqual([...oracle.orders.keys()]);
  expect([...files.ranks.keys()]).toEqual([...oracle.ranks.keys()]);
  for (const [name, path] of files.orders) same(`order ${name}`, path, oracle.orders.get(name)!);
  for (const [name, path] of files.ranks) same(`rank ${name}`, path, oracle.ranks.get(name)!);
}

/** Builds both types' orders in a fresh spill directory, checks them and that nothing else is left in it. */
function check(entities: Entity[], budget = TINY_BUDGET): void {
  const dist = mkdtempSync(join(root, 'case-'));
  const inputs = columnsOf(entities, dist);
  const oracle = derived(entities);
  const spill = SpillDir.create(dist);
  try {
    const songs = buildEntityOrders(inputs, spill, budget, { label: 'songs' });
    const artists = buildEntityOrders({ ...inputs, releaseDate: undefined }, spill, budget, { label: 'artists' });
    // As the compile builds the songs': all but the release-date orders from another thread's
    // view of the spill directory (its own names) without the release dates, then the rest here.
    const beside = SpillDir.attach(spill.path, 'beside-');
    const before = continueEntityOrders(startEntityOrders({ ...inputs, releaseDate: undefined }, beside, budget, { label: 'songs' }), beside, budget, {
      label: 'songs',
    });
    const split = addReleaseOrders(before, inputs.count, inputs.releaseDate, spill, budget, { label: 'split' });
    expectSame(songs, oracle.songs);
    expectSame(artists, oracle.artists);
    expectSame(split, oracle.songs);
    const returned = [songs, artists, split].flatMap((f) => [f.idRank, ...f.orders.values(), ...f.ranks.values()].map((p) => basename(p)));
    expect(readdirSync(spill.path).sort()).toEqual(returned.sort());
  } finally {
    spill.remove();
    rmSync(dist, { recursive: true, force: true });
  }
}

// Ids: decimal ones (numeric order, up to 15 digits), ones that only look decimal (leading
// zeros, 16 digits, signs), the generator's `s<n>`, and any text, including characters past
// U+FFFF (surrogate pairs) and U+E000-U+FFFF, whose UTF-8 order differs from code-unit order.
const decimalId = fc.oneof(
  fc.nat({ max: 3000 }).map(String),
  fc.bigInt({ min: 0n, max: 999_999_999_999_999n }).map(String),
  fc.constantFrom('0', '999999999999999'),
);
const textId = fc.oneof(
  fc.nat({ max: 3000 }).map((n) => `s${n}`),
  fc.constantFrom('', '00', '01', '007', '1234567890123456', '-1', '1.5', '1e3', ' 1', '1\n', 'S1', 'é', '\uE000', '\uFFFF', '😀', '𝐀', 'a\u0000b'),
  fc.string({ unit: 'binary', maxLength: 6 }),
);

// Names: case, accents composed and not, NFKC folds (ligatures, full width, math letters, the
// ohm sign), lower-casing that grows ('İ'), shared names, empty ones; U+0000 in some runs only.
const WORDS = [
  'Love',
  'love',
  'LOVE',
  'Café',
  'Cafe\u0301',
  'café',
  'ﬁre',
  'fire',
  'FIRE',
  'Ｌｏｖｅ',
  'İstanbul',
  'istanbul',
  'Straße',
  'STRASSE',
  '𝐀lpha',
  'alpha',
  'Ω',
  'Ω',
  'ǅ',
  '①',
  '1',
  '😀',
  '\uE000x',
  '\uFFFF',
  '',
  ' ',
  'a',
  'A',
];
const word = fc.constantFrom(...WORDS);
const plainName = fc.oneof(
  word,
  fc.tuple(word, word).map(([a, b]) => `${a} ${b}`),
  fc.string({ unit: 'binary', maxLength: 5 }).map((s) => s.replaceAll('\u0000', '')),
);
const nulName = fc.constantFrom('\u0000', 'a\u0000', 'a\u00000', 'a\u0000z', 'love\u0000', 'Love\u0000\u0000');

// Numbers: missing (NaN), both zeros, negatives, huge and tiny, infinities, many ties.
const number = fc.oneof(
  fc.constantFrom(
    Number.NaN,
    0,
    -0,
    1,
    -1,
    1e308,
    -1e308,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.MIN_VALUE,
    -Number.MIN_VALUE,
    2 ** 53,
    1_700_000_000_000,
  ),
  fc.integer({ min: -3, max: 3 }),
  fc.double(),
);
const releaseDate = fc.oneof(fc.constant(Number.NaN), fc.constantFrom(19990000, 19990100, 19990101, 20240229, 20261231));

function entitiesOf(withNul: boolean, maxLength: number) {
  const name = withNul ? fc.oneof({ arbitrary: plainName, weight: 5 }, { arbitrary: nulName, weight: 1 }) : plainName;
  return fc
    .uniqueArray(fc.oneof(decimalId, textId), { maxLength, size: 'max' })
    .chain((ids) => fc.tuple(...ids.map((id) => fc.record({ id: fc.constant(id), name, dateAdded: number, popularity: number, releaseDate }))));
}

describe('buildEntityOrders', () => {
  it('writes, value for value, the id ranks, orders and ranks that entityOrders computes in memory, across many spilled runs', () => {
    const sizes: number[] = [];
    fc.assert(
      fc.property(entitiesOf(false, 6000), (entities) => {
        check(entities);
        sizes.push(entities.length);
      }),
      { numRuns: 12, seed: 19, endOnFailure: true },
    );
    expect(Math.max(...sizes)).toBeGreaterThan(4000);
  });

  it('sorts short ids (keys of up to 12 bytes: decimal ids, text ids of up to 11 code-unit bytes without U+0000) as fixed records, with the same result', () => {
    const shortTextId = fc.oneof(
      fc.nat({ max: 99_999_999 }).map((n) => `s${n}`),
      fc.constantFrom('', '00', '01', '-1', '1234567890123456'.slice(0, 11), 'é', '\uE000', '\uFFFF', '😀', 'a😀b', 'zzzzzzzzzzz'),
      fc.string({ unit: 'binary-ascii', maxLength: 11 }).filter((s) => !s.includes('\u0000')),
    );
    const shortIds = fc.uniqueArray(fc.oneof(decimalId, shortTextId), { maxLength: 5000, size: 'max' });
    fc.assert(
      fc.property(
        shortIds.chain((ids) =>
          fc.tuple(...ids.map((id) => fc.record({ id: fc.constant(id), name: plainName, dateAdded: number, popularity: number, releaseDate }))),
        ),
        (entities) => check(entities),
      ),
      { numRuns: 8, seed: 23, endOnFailure: true },
    );
  });

  it('sorts names whose sort keys hold U+0000 as the composite strings orderByString sorts', () => {
    fc.assert(
      fc.property(entitiesOf(true, 2500), (entities) => check(entities)),
      { numRuns: 10, seed: 7, endOnFailure: true },
    );
  });

  it("lines a NUL in a name up against another record's id-rank digits, as the oracle does", () => {
    // 30 entities: id ranks are one base-36 digit. "a" with id rank 29 sorts as "a\u0000t", so
    // "a\u0000b" (rank 1: "a\u0000b\u00001") falls between the two "a"s, which become two groups.
    const entities: Entity[] = Array.from({ length: 30 }, (_, i) => ({
      id: String(i),
      name: i === 0 || i === 29 ? 'a' : i === 1 ? 'a\u0000b' : `n${i}`,
      dateAdded: i,
      popularity: -i,
      releaseDate: Number.NaN,
    }));
    check(entities);
  });

  it('never pads an id holding U+0000 into a tie with a shorter one ("a\\u0000" after "a")', () => {
    check(['a\u0000', 'a', 'b\u0000\u0000', 'b\u0000', 'b'].map((id, i) => ({ id, name: 'x', dateAdded: i, popularity: i, releaseDate: i })));
  });

  it('handles no entities, one, and all keys missing', () => {
    check([]);
    check([{ id: 'x', name: 'X', dateAdded: Number.NaN, popularity: Number.NaN, releaseDate: Number.NaN }]);
    check(Array.from({ length: 3000 }, (_, i) => ({ id: `s${i}`, name: 'same', dateAdded: Number.NaN, popularity: Number.NaN, releaseDate: Number.NaN })));
  });

  it('gives the same files whatever the budget', () => {
    const entities: Entity[] = Array.from({ length: 5000 }, (_, i) => ({
      id: i % 3 ? `s${(i * 7919) % 5000}` : String((i * 7919) % 5000),
      name: WORDS[(i * 31) % WORDS.length],
      dateAdded: (i * 13) % 97,
      popularity: i % 11 ? (i * 17) % 89 : Number.NaN,
      releaseDate: 20000000 + (i % 5) * 100,
    }));
    check(entities, 4096);
    check(entities, 64 * 1024);
    check(entities, 64 * 2 ** 20);
  });
});
