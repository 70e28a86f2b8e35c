import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSearchShards } from '../src/compile/search-index.js';
import { openSearchInputs } from '../src/compile/search-build/inputs.js';
import { searchedNames } from '../src/compile/search-build/phrase-pages.js';
import { SearchIndex } from '../src/index-format/search/search-index.js';
import type { SearchDocuments } from './helpers/search-columns.js';
import { openShard } from '../src/index-format/shards/shard-reader.js';
import { searchIndex, TIER } from '../src/search/search-engine.js';
import { searchDocumentFiles } from './helpers/search-columns.js';

const root = mkdtempSync(join(tmpdir(), 'omm-search-build-reader-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a search index built out of core, read by the search engine', () => {
  it('answers searches through the reader: exact names, a word set with an artist, a prefix and a typo', async () => {
    const names = ['Yellow Submarine', 'Hey Jude', 'Let It Be', 'Bohemian Rhapsody', 'Café del Mar', '夜に駆ける', 'Yesterday', 'Let It Go'];
    const artistNames = ['The Beatles', 'Queen', 'Energy 52', 'YOASOBI', 'Idina Menzel'];
    const credits = [[0], [0], [0], [1], [2], [3], [0], [4]];
    const offsets = Uint32Array.from([0, ...credits.map((_, i) => credits.slice(0, i + 1).flat().length)]);
    const docs: SearchDocuments = {
      type: 'song',
      ordinals: Uint32Array.from([6, 0, 1, 2, 3, 4, 5, 7]),
      names,
      artists: { offsets, targets: Uint32Array.from(credits.flat()), artistNames },
    };
    const [songsDir, artistsDir, spillDir, outDir] = ['songs', 'artists', 'spill', 'out'].map((d) => join(root, d));
    for (const d of [songsDir, artistsDir, spillDir, outDir]) mkdirSync(d);
    const artists: SearchDocuments = { type: 'artist', ordinals: Uint32Array.from(artistNames.keys()), names: artistNames };
    const documents = [searchDocumentFiles(songsDir, docs), searchDocumentFiles(artistsDir, artists)];
    const shards = await startSearchShards({ outDir, buildId: 'b1', spillDir, budgetBytes: 64 * 1024, documents });
    expect(shards.map((s) => s.name)).toEqual(['search.songs', 'search.songs.first-pages', 'search.artists', 'search.artists.first-pages']);
    expect(readdirSync(spillDir)).toEqual([]);
    const index = new SearchIndex(openShard(join(outDir, 'search.songs.blob')));
    const first = (term: string) => {
      const hit = searchIndex(index, term).hits[0];
      return hit && { name: names[index.ordinal(hit.rank)], tier: hit.tier };
    };
    expect(first('hey jude')).toEqual({ name: 'Hey Jude', tier: TIER.exactName });
    expect(first('cafe del mar')).toEqual({ name: 'Café del Mar', tier: TIER.exactName });
    expect(first('夜に駆ける')).toEqual({ name: '夜に駆ける', tier: TIER.exactName });
    expect(first('queen bohemian rhapsody')).toEqual({ name: 'Bohemian Rhapsody', tier: TIER.wordSet });
    expect(first('bohem')).toEqual({ name: 'Bohemian Rhapsody', tier: TIER.namePrefix });
    expect(first('yelow submarine')?.name).toBe('Yellow Submarine');
    // Popularity order: Yesterday (rank 0) before Let It Be among the Beatles' songs.
    expect(searchIndex(index, 'beatles').hits.map((h) => names[index.ordinal(h.rank)])).toEqual(['Yesterday', 'Yellow Submarine', 'Hey Jude', 'Let It Be']);
    expect(searchIndex(index, 'let it').hits.map((h) => names[index.ordinal(h.rank)])).toEqual(['Let It Be', 'Let It Go']);
    const byArtist = new SearchIndex(openShard(join(outDir, 'search.artists.blob')));
    expect(searchIndex(byArtist, 'yoasobi').hits.map((h) => artistNames[byArtist.ordinal(h.rank)])).toEqual(['YOASOBI']);
  });

  it("ranks phrases from each document's name in rank order, then each credited artist's once", () => {
    const dir = join(root, 'phrase-names');
    mkdirSync(dir);
    const docs: SearchDocuments = {
      type: 'song',
      ordinals: Uint32Array.from([2, 0, 1]),
      names: ['さくら', 'AC/DC Live', '夜に駆ける'],
      artists: { offsets: Uint32Array.from([0, 1, 3, 4]), targets: Uint32Array.from([1, 1, 0, 0]), artistNames: ['東京事変', "Guns N' Roses", 'Not Credited'] },
    };
    const seen: string[] = [];
    searchedNames(openSearchInputs(searchDocumentFiles(dir, docs)))((name) => seen.push(name));
    expect(seen).toEqual(['夜に駆ける', 'さくら', 'AC/DC Live', '東京事変', "Guns N' Roses"]);
  });
});
