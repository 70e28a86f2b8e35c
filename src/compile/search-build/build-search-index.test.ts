import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { searchDocumentFiles } from '../../../test/helpers/search-columns.js';
import { writeSearchIndex, type SearchDocuments } from '../../index-format/search/search-index-writer.js';
import { SpillDir } from '../spill/spill-dir.js';
import { spillStats } from '../../sort/spill-stats.js';
import { buildSearchIndex } from './build-search-index.js';

const root = mkdtempSync(join(tmpdir(), 'omm-search-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;

/** Small enough that every sorter spills: 1,024 records an arena, 64 KiB for the byte sorters. */
const TINY_BUDGET = 64 * 1024;

/** Both writers over the same documents: the shard files' bytes, the runs the out-of-core build spilled and what it left in its spill directory. */
function buildBoth(docs: SearchDocuments, budget = TINY_BUDGET): { expected: Buffer; actual: Buffer; runs: number; left: string[] } {
  const dir = join(root, String(dirs++));
  const spillDir = join(dir, 'spill');
  mkdirSync(spillDir, { recursive: true });
  writeSearchIndex(join(dir, 'memory.blob'), 'b1', docs);
  const runsBefore = spillStats.runs;
  buildSearchIndex(join(dir, 'built.blob'), 'b1', searchDocumentFiles(dir, docs), SpillDir.attach(spillDir, 'search-'), budget);
  const runs = spillStats.runs - runsBefore;
  const out = { expected: readFileSync(join(dir, 'memory.blob')), actual: readFileSync(join(dir, 'built.blob')), runs, left: readdirSync(spillDir) };
  rmSync(dir, { recursive: true, force: true });
  return out;
}

// Words that fold together (case, accents, ligatures, ß), CJK runs that split per character,
// punctuation that splits or vanishes, one-letter and too-long typo lengths, a surrogate pair.
const WORDS = [
  'love',
  'Love',
  'LOVE',
  'café',
  'CAFE',
  'niño',
  'nino',
  'straße',
  'strasse',
  'Ølsen',
  'ﬁre',
  'fire',
  '夜',
  '心に',
  '東京タワー',
  '사랑',
  'αγάπη',
  'любовь',
  '𝒜bc',
  'the',
  'a',
  'x',
  "rock'n'roll",
  'AC/DC',
  '12',
  '...',
  '—',
  '',
  'abc',
  'abcd',
  'z'.repeat(34),
  'y'.repeat(40),
];
const SEPARATORS = [' ', ' ', ' ', '  ', ' - ', ', ', ' (', ') ', '&', ''];
const letters = fc.constantFrom(...'abcdeéñøœæłđ夜中ü'.split(''));
const word = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: fc.string({ unit: letters, minLength: 1, maxLength: 9 }) });
const name = fc
  .tuple(fc.array(word, { maxLength: 7 }), fc.array(fc.constantFrom(...SEPARATORS), { minLength: 7, maxLength: 7 }))
  .map(([words, seps]) => words.map((w, i) => (i === 0 ? w : seps[i] + w)).join(''));

/** Songs in a shuffled popularity order, each crediting 0..3 artists drawn from a small shared pool (repeats included). */
const songs = fc
  .record({
    names: fc.array(name, { maxLength: 2500, size: 'max' }),
    artistNames: fc.array(name, { minLength: 1, maxLength: 60 }),
    seed: fc.nat(),
  })
  .chain(({ names, artistNames, seed }) =>
    fc
      .array(fc.array(fc.nat({ max: artistNames.length - 1 }), { maxLength: 3 }), { minLength: names.length, maxLength: names.length })
      .map((credits): SearchDocuments => {
        const offsets = new Uint32Array(names.length + 1);
        credits.forEach((c, o) => (offsets[o + 1] = offsets[o] + c.length));
        const ordinals = Uint32Array.from(names.keys());
        let x = seed;
        for (let i = ordinals.length - 1; i > 0; i--) {
          x = (Math.imul(x, 1103515245) + 12345) >>> 0;
          const j = x % (i + 1);
          [ordinals[i], ordinals[j]] = [ordinals[j], ordinals[i]];
        }
        return { type: 'song', ordinals, names, artists: { offsets, targets: Uint32Array.from(credits.flat()), artistNames } };
      }),
  );

describe('buildSearchIndex (out of core)', () => {
  it('writes the bytes the in-memory writer writes, for songs with credits, under a budget that makes its sorters spill', () => {
    const spilled: number[] = [];
    fc.assert(
      fc.property(songs, (docs) => {
        const { expected, actual, runs, left } = buildBoth(docs);
        expect(actual.equals(expected)).toBe(true);
        expect(left).toEqual([]);
        spilled.push(runs);
      }),
      { numRuns: 25, seed: 19, endOnFailure: true },
    );
    // The larger cases spill many runs (across all the sorters) and merge them.
    expect(Math.max(...spilled)).toBeGreaterThan(30);
  });

  it('writes the same bytes for a type without artists, with names missing for some ordinals', () => {
    fc.assert(
      fc.property(fc.array(name, { maxLength: 1500, size: 'max' }), fc.nat({ max: 20 }), (names, missing) => {
        const ordinals = Uint32Array.from({ length: names.length + missing }, (_, i) => names.length + missing - 1 - i);
        const { expected, actual } = buildBoth({ type: 'artist', ordinals, names });
        expect(actual.equals(expected)).toBe(true);
      }),
      { numRuns: 15, seed: 3, endOnFailure: true },
    );
  });

  it('writes the same bytes with no documents at all', () => {
    const { expected, actual } = buildBoth({ type: 'playlist', ordinals: new Uint32Array(0), names: [] });
    expect(actual.equals(expected)).toBe(true);
  });
});
