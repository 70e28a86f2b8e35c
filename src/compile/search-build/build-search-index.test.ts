import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type SearchDocuments, searchDocumentFiles } from '../../../test/helpers/search-columns.js';
import { SearchIndex } from '../../index-format/search/search-index.js';
import { searchText } from '../../index-format/search/search-text.js';
import { openShard } from '../../index-format/shards/shard-reader.js';
import { SpillDir } from '../spill/spill-dir.js';
import { spillStats } from '../../sort/spill-stats.js';
import { buildSearchIndex } from './build-search-index.js';

const root = mkdtempSync(join(tmpdir(), 'omm-search-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;

/** The digest of the shard the pinned test writes (its documents: fast-check's sample of `songs` under seed 42). */
const PINNED_DIGEST = '99749e74c9cb9287';

/** Small enough that every sorter spills: 1,024 records an arena, 64 KiB for the byte sorters. */
const TINY_BUDGET = 64 * 1024;

/** Budgets that make every sorter spill, and that spill nothing. */
const NO_SPILL_BUDGET = 2 ** 30;

/** The shard built from `docs` within `budget`: its bytes, the runs its sorters spilled and what it left in its spill directory. */
function build(docs: SearchDocuments, budget: number): { bytes: Buffer; runs: number; left: string[]; path: string } {
  const dir = join(root, String(dirs++));
  const spillDir = join(dir, 'spill');
  mkdirSync(spillDir, { recursive: true });
  const runsBefore = spillStats.runs;
  const path = join(dir, 'search.blob');
  buildSearchIndex(path, 'b1', searchDocumentFiles(dir, docs), SpillDir.attach(spillDir, 'search-'), budget);
  return { bytes: readFileSync(path), runs: spillStats.runs - runsBefore, left: readdirSync(spillDir), path };
}

/** The tokens of a name as the index holds them: its normalised words, each once, in order of appearance. */
const tokensOf = (name: string): string[] => {
  const normal = searchText(name);
  return normal.length === 0 ? [] : [...new Set(normal.split(' '))];
};

const compareBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * What the sections must say about `docs`, read back through the server's reader and checked
 * against a plain model of the documents: the ordinals, the normalised names, every term once in
 * byte order and found by its hash, each term's postings (the ranks whose name or artists hold
 * it), each rank's name terms in order of appearance, the names' order, each name's word set
 * and each term under its own typo key.
 */
function checkSections(path: string, docs: SearchDocuments): void {
  const index = new SearchIndex(openShard(path, 'BLOB'));
  const count = docs.ordinals.length;
  expect(Array.from(index.u32('ordinals'))).toEqual(Array.from(docs.ordinals));
  const artistTokens = docs.artists?.artistNames.map(tokensOf) ?? [];
  const nameTokens: string[][] = [];
  const allTokens: string[][] = [];
  for (let r = 0; r < count; r++) {
    const ordinal = docs.ordinals[r];
    const name = docs.names[ordinal] ?? '';
    expect(index.name(r)).toBe(searchText(name));
    nameTokens.push(tokensOf(name));
    const credited = new Set<string>();
    const artists = docs.artists;
    if (artists)
      for (let k = artists.offsets[ordinal]; k < artists.offsets[ordinal + 1]; k++) for (const t of artistTokens[artists.targets[k]]) credited.add(t);
    allTokens.push([...nameTokens[r], ...credited]);
  }
  const terms = [...new Set(allTokens.flat())].sort(compareBytes);
  expect(index.terms).toBe(terms.length);
  const postings = index.u32('postings');
  const postingOffsets = index.u32('postings.offsets');
  terms.forEach((term, id) => {
    expect(index.term(id)).toBe(term);
    expect(index.termId(term)).toBe(id);
    // Typo keys: a term of 3 to 33 characters under its own hash (and its deletions'); others none.
    const length = [...term].length;
    expect(index.typoCandidates(term).has(id), term).toBe(length >= 3 && length <= 33);
    const holders = allTokens.flatMap((tokens, r) => (tokens.includes(term) ? [r] : []));
    expect(Array.from(postings.subarray(postingOffsets[id], postingOffsets[id + 1]))).toEqual(holders);
  });
  const docName = index.u32('docname.targets');
  const docNameOffsets = index.u32('docname.offsets');
  for (let r = 0; r < count; r++) {
    const ids = Array.from(docName.subarray(docNameOffsets[r], docNameOffsets[r + 1]));
    expect(ids.map((id) => terms[id])).toEqual(nameTokens[r]);
    if (ids.length > 0) expect(index.wordSetRanks(Uint32Array.from(new Set(ids)).sort(), count)).toContain(r);
  }
  const byName = Array.from({ length: count }, (_, r) => r).sort((a, b) => compareBytes(index.name(a), index.name(b)) || a - b);
  expect(Array.from(index.u32('names.order'))).toEqual(byName);
  // Every name's run through the name table (names.hashes), and a name no document holds.
  for (const name of new Set([...byName.map((r) => index.name(r)), 'no such name'])) {
    const from = byName.findIndex((r) => compareBytes(index.name(r), name) >= 0);
    const at = from < 0 ? count : from;
    let to = at;
    while (to < count && index.name(byName[to]) === name) to++;
    expect(index.exactNameRange(name), name).toEqual({ from: at, to });
  }
  expect(index.u32('names.hashes').length).toBe(new Set(byName.map((r) => index.name(r))).size * 3);
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

describe('buildSearchIndex (out of core), the one writer of the search index', () => {
  it('writes the same bytes whether its sorters spill or not, and sections that say what the documents say', () => {
    const spilled: number[] = [];
    fc.assert(
      fc.property(songs, (docs) => {
        const tight = build(docs, TINY_BUDGET);
        const roomy = build(docs, NO_SPILL_BUDGET);
        expect(roomy.runs).toBe(0);
        expect(tight.bytes.equals(roomy.bytes)).toBe(true);
        expect(tight.left).toEqual([]);
        checkSections(roomy.path, docs);
        spilled.push(tight.runs);
      }),
      { numRuns: 25, seed: 19, endOnFailure: true },
    );
    // The larger cases spill many runs (across all the sorters) and merge them.
    expect(Math.max(...spilled)).toBeGreaterThan(30);
  });

  it('writes the same for a type without artists, with names missing for some ordinals', () => {
    fc.assert(
      fc.property(fc.array(name, { maxLength: 1500, size: 'max' }), fc.nat({ max: 20 }), (names, missing) => {
        const ordinals = Uint32Array.from({ length: names.length + missing }, (_, i) => names.length + missing - 1 - i);
        const docs: SearchDocuments = { type: 'artist', ordinals, names };
        const tight = build(docs, TINY_BUDGET);
        const roomy = build(docs, NO_SPILL_BUDGET);
        expect(tight.bytes.equals(roomy.bytes)).toBe(true);
        checkSections(roomy.path, docs);
      }),
      { numRuns: 15, seed: 3, endOnFailure: true },
    );
  });

  it('writes an index with no documents at all', () => {
    const docs: SearchDocuments = { type: 'playlist', ordinals: new Uint32Array(0), names: [] };
    checkSections(build(docs, TINY_BUDGET).path, docs);
  });

  it('writes the bytes pinned here: a change to the format is a decision, made here and in docs/format.md', () => {
    const [docs] = fc.sample(songs, { numRuns: 1, seed: 42 });
    const { bytes } = build(docs, NO_SPILL_BUDGET);
    // The shard's header carries no time and the build id is fixed: the bytes are the format's.
    expect(createHash('sha256').update(bytes).digest('hex').slice(0, 16)).toBe(PINNED_DIGEST);
  });
});
