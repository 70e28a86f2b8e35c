import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { SearchIndex } from '../src/index-format/search/search-index.js';
import { searchText } from '../src/index-format/search/search-text.js';
import { openShard } from '../src/index-format/shards/shard-reader.js';
import { SEARCH_ENGINE_VERSION, searchIndex } from '../src/search/search-engine.js';
import { tempDir } from './helpers/raw-fixture.js';
import { SAMPLE_RAW } from './helpers/server.js';

/**
 * The compile stores answers of the search engine (first pages of one-word, two-word and phrase
 * searches, two-word counts) and a server trusts them while SEARCH_ENGINE_VERSION matches. A
 * change to the ranking that forgets to bump the version would serve stale answers without a
 * word, so the live engine's answers to a fixed set of queries over the bundled sample are
 * pinned here to the version: change what searchIndex returns, and this fails until the version
 * is bumped in src/search/search-engine.ts and the digest below updated with it.
 */
const PINNED = { version: 1, answers: '00a43eebc128d442' };

/** The queries: for each of a type's first names, its words, pairs of them, prefixes and a typo. */
function queriesFor(names: string[]): string[] {
  const out = new Set<string>();
  for (const name of names) {
    const words = searchText(name).split(' ').filter(Boolean);
    if (words.length === 0) continue;
    out.add(name);
    for (const w of words) out.add(w);
    for (let i = 0; i + 1 < words.length; i++) out.add(`${words[i]} ${words[i + 1]}`);
    out.add(words[0].slice(0, 2));
    out.add(words[0].slice(0, 3));
    if (words.length > 1) out.add(`${words[0]} ${words[1].slice(0, 2)}`);
    // Typos: two letters swapped, and one left out, in each word of four letters or more.
    for (const w of words.filter((x) => x.length >= 4)) {
      out.add(`${w.slice(0, 1)}${w[2]}${w[1]}${w.slice(3)}`);
      out.add(`${w.slice(0, 2)}${w.slice(3)}`);
    }
  }
  return [...out];
}

describe('the search engine version (stored answers never go stale)', () => {
  let indexes: Map<string, SearchIndex>;
  beforeAll(async () => {
    const dist = tempDir('omm-engine-version-');
    const { snapshotDir } = await compileCatalog({ rawDir: SAMPLE_RAW, outDir: dist });
    indexes = new Map();
    // The search indexes alone, without the first pages the compile stored: the live engine.
    for (const file of readdirSync(snapshotDir)
      .filter((f) => /^search\.[a-z]+\.blob$/.test(f))
      .sort()) {
      indexes.set(file.split('.')[1], new SearchIndex(openShard(join(snapshotDir, file))));
    }
    expect([...indexes.keys()]).toEqual(['albums', 'artists', 'playlists', 'songs']);
  });

  it('answers a fixed set of queries as the version it names ranks them', () => {
    const digest = createHash('sha256');
    let queries = 0;
    for (const [type, index] of indexes) {
      const names = Array.from({ length: Math.min(index.documents, 150) }, (_, i) => index.name(i));
      for (const query of queriesFor(names)) {
        for (const need of [1, 10, 25]) {
          const { hits, total } = searchIndex(index, query, { need });
          digest.update(`${type}\0${query}\0${need}\0${total}\0${hits.map((h) => `${h.rank}.${h.tier}`).join(',')}\n`);
          queries++;
        }
      }
    }
    expect(queries).toBeGreaterThan(2000);
    expect(
      { version: SEARCH_ENGINE_VERSION, answers: digest.digest('hex').slice(0, 16) },
      'the search engine ranks differently: bump SEARCH_ENGINE_VERSION in src/search/search-engine.ts (stored first pages of the old ranking are then not used), then put the new digest here',
    ).toEqual(PINNED);
  });
});
