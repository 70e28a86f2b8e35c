import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAME_GROUP_MIN, NAME_GROUP_SCAN, nameGroupBlock, NameGroups } from '../../index-format/search/name-groups.js';
import { SearchIndex } from '../../index-format/search/search-index.js';
import { writeSearchIndex, type SearchDocuments } from '../../../test/helpers/search-columns.js';
import { openShard } from '../../index-format/shards/shard-reader.js';
import { writeFirstPages } from './first-pages.js';

// Titles shared by many documents (groups over NAME_GROUP_MIN, one past NAME_GROUP_SCAN, one
// just under the minimum), and artists whose names share words.
const GROUPS: [string, number][] = [
  ['love', NAME_GROUP_SCAN + 300],
  ['night love', 700],
  ['fire', NAME_GROUP_MIN],
  ['rain', NAME_GROUP_MIN - 1],
];
const WORDS = ['blue', 'moon', 'red', 'sun', 'gold', 'sky', 'the'];

function documents(): SearchDocuments {
  let x = 29;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const artistNames = Array.from({ length: 40 }, (_, i) => `${pick(WORDS)} ${pick(WORDS)} a${i}`);
  const names: string[] = [];
  for (const [name, count] of GROUPS) for (let i = 0; i < count; i++) names.push(name);
  for (let i = 0; i < 500; i++) names.push(`${pick(WORDS)} song ${i}`);
  names.push('love song', 'lovers', 'night', 'night love song', 'fir');
  // Popularity order mixes the groups.
  for (let i = names.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [names[i], names[j]] = [names[j], names[i]];
  }
  const offsets = new Uint32Array(names.length + 1);
  const targets: number[] = [];
  for (let o = 0; o < names.length; o++) {
    // One to three credited artists; some documents none.
    const n = next() < 0.05 ? 0 : 1 + Math.floor(next() * 3);
    for (let k = 0; k < n; k++) targets.push(Math.floor(next() * artistNames.length));
    offsets[o + 1] = targets.length;
  }
  const ordinals = Uint32Array.from({ length: names.length }, (_, i) => i);
  return { type: 'song', ordinals, names, artists: { offsets, targets: Uint32Array.from(targets), artistNames } };
}

describe('name groups (the matcher first stage, written by the compile)', () => {
  let dir: string;
  let index: SearchIndex;
  let groups: NameGroups;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'omm-name-groups-'));
    writeSearchIndex(join(dir, 'search.blob'), 'b1', documents());
    writeFirstPages(join(dir, 'search.blob'), join(dir, 'pages.blob'), 'b1', { minPostings: 100 });
    index = new SearchIndex(openShard(join(dir, 'search.blob')), openShard(join(dir, 'pages.blob')));
    groups = index.firstPages!.nameGroups()!;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The first `limit` positions of the group whose artists hold every term, by testing each document. */
  function bruteForce(name: string, ids: number[], limit: number): number[] {
    const order = index.u32('names.order');
    const range = index.exactNameRange(name);
    const out: number[] = [];
    for (let p = 0; p < Math.min(range.to - range.from, NAME_GROUP_SCAN) && out.length < limit; p++) {
      if (index.artistsHold(order[range.from + p], ids)) out.push(p);
    }
    return out;
  }

  it('stores the groups of NAME_GROUP_MIN documents or more, and no others', () => {
    expect(groups.size).toBe(3);
    expect(groups.holdingAll(index.exactNameRange('rain').from, [index.termId('blue')], 10)).toBeNull();
    for (const name of ['love', 'night love', 'fire']) expect(groups.holdingAll(index.exactNameRange(name).from, [index.termId('blue')], 10)).not.toBeNull();
  });

  it('lists, for every artist term and pairs and triples of them, the documents a scan of the group finds', () => {
    const terms = [...WORDS, ...Array.from({ length: 40 }, (_, i) => `a${i}`)].map((w) => index.termId(w));
    expect(terms.every((id) => id >= 0)).toBe(true);
    let checked = 0;
    for (const name of ['love', 'night love', 'fire']) {
      const start = index.exactNameRange(name).from;
      for (const t of terms) {
        expect(groups.holdingAll(start, [t], Infinity)).toEqual(bruteForce(name, [t], Infinity));
        checked++;
      }
      for (let i = 0; i < WORDS.length; i++) {
        for (let j = 0; j < terms.length; j += 3) {
          const ids = [terms[i], terms[j], terms[(i * 7 + j) % terms.length]];
          for (const limit of [1, 40]) {
            expect(groups.holdingAll(start, ids.slice(0, 2), limit)).toEqual(bruteForce(name, ids.slice(0, 2), limit));
            expect(groups.holdingAll(start, ids, limit)).toEqual(bruteForce(name, ids, limit));
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
    // The largest group stops at NAME_GROUP_SCAN documents, as the scan does.
    const all = groups.holdingAll(index.exactNameRange('love').from, [index.termId('the')], Infinity)!;
    expect(all.length).toBeGreaterThan(0);
    expect(Math.max(...all)).toBeLessThan(NAME_GROUP_SCAN);
  });

  it('finds nothing for a term no document of the group credits, and is null without terms', () => {
    const start = index.exactNameRange('love').from;
    expect(groups.holdingAll(start, [index.termId('song')], 40)).toEqual([]);
    expect(groups.holdingAll(start, [], 40)).toBeNull();
  });

  it('finds the run of each exact name in the name order (a name it starts, like "love" of "love song", is not in it)', () => {
    const order = index.u32('names.order');
    const all = Array.from(order, (rank) => index.name(rank));
    const asked = [...new Set(all), 'lov', 'love ', 'night', 'night lovers', '', 'zzz', 'a'];
    for (const name of asked) {
      const first = all.indexOf(name);
      const expected = first < 0 ? 0 : all.lastIndexOf(name) + 1 - first;
      const range = index.exactNameRange(name);
      expect({ name, size: range.to - range.from }).toEqual({ name, size: expected });
      if (first >= 0) expect(range.from).toBe(first);
    }
  });

  it('packs terms and positions as the format says', () => {
    const block = nameGroupBlock(3, (p, add) => [[7, 2, 7], [2], []][p].forEach(add));
    // T = 2 terms (2, 7); offsets 0, 2, 3; positions 0, 1 | 0.
    expect([...block]).toEqual([2, 2, 7, 0, 2, 3, 0 | (1 << 16), 0]);
    const read = new NameGroups(Uint32Array.of(10), Uint32Array.of(0, block.length), block, 'test');
    expect(read.holdingAll(10, [2], 5)).toEqual([0, 1]);
    expect(read.holdingAll(10, [7, 2], 5)).toEqual([0]);
    expect(read.holdingAll(11, [7], 5)).toBeNull();
    expect(() => nameGroupBlock(NAME_GROUP_SCAN + 1, () => undefined)).toThrow(/at most/);
  });
});
