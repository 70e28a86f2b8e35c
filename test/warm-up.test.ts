import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { generateCatalog } from '../src/generate/generate.js';
import { Catalog } from '../src/catalog/catalog.js';
import { matchResource } from '../src/search/match/matcher.js';
import { searchIndex } from '../src/search/search-engine.js';
import { warmUp } from '../src/serve/warm-up.js';
import { tempDir } from './helpers/raw-fixture.js';

describe('warmUp', () => {
  let dist: string;
  beforeAll(async () => {
    const raw = tempDir();
    await generateCatalog({ songs: 3000, seed: 5, out: raw });
    dist = tempDir();
    await compileCatalog({ rawDir: raw, outDir: dist });
  });

  it('builds the bitmaps of the common words and runs searches and matches, in slices, leaving the answers as they were', async () => {
    const cold = Catalog.open(dist);
    const warm = Catalog.open(dist);
    const songs = warm.search('song');
    expect(songs.bitmapTerms().length).toBeGreaterThan(10);
    expect(songs.bitmapsKept).toBe(0);
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const report = await warmUp(warm, { songs: 16 });
    clearInterval(ticking);
    expect(report).toMatchObject({ completed: true, queries: 80 });
    expect(report.bitmaps).toBe(songs.bitmapsKept + warm.search('album').bitmapsKept + warm.search('artist').bitmapsKept);
    expect(songs.bitmapsKept).toBe(songs.bitmapTerms().length);
    // The event loop turned while it worked.
    expect(turns).toBeGreaterThan(0);
    for (let ordinal = 0; ordinal < 3000; ordinal += 97) {
      const song = cold.song(ordinal);
      const term = `${song.name} ${song.artistNames[0] ?? ''}`;
      expect(searchIndex(songs, term, { need: 10 })).toEqual(searchIndex(cold.search('song'), term, { need: 10 }));
      const query = { name: song.name, artist: song.artistNames.join(' & ') };
      expect(matchResource(warm, 'song', query)).toEqual(matchResource(cold, 'song', query));
    }
    cold.close();
    warm.close();
  });

  it('stops when cancelled', async () => {
    // A copy of its own: indexes over the same files share their bitmaps (shared-bitmaps.ts).
    const copy = tempDir();
    cpSync(dist, copy, { recursive: true });
    const cat = Catalog.open(copy);
    const report = await warmUp(cat, { cancelled: () => true });
    expect(report.completed).toBe(false);
    expect(cat.search('song').bitmapsKept).toBe(0);
    cat.close();
  });

  it('a snapshot over the same files (hard links, as omm takedown makes) starts from the bitmaps and verified pages of one open', async () => {
    const first = Catalog.open(dist);
    await warmUp(first);
    const linked = tempDir();
    execFileSync('cp', ['-al', `${first.snapshot.dir}/.`, linked]);
    const second = Catalog.open(linked);
    expect(second.search('song').bitmapsKept).toBe(first.search('song').bitmapsKept);
    expect(second.search('song').bitmapsKept).toBeGreaterThan(0);
    const copy = tempDir();
    cpSync(first.snapshot.dir, copy, { recursive: true });
    const third = Catalog.open(copy);
    expect(third.search('song').bitmapsKept).toBe(0);
    first.close();
    second.close();
    third.close();
  });
});
