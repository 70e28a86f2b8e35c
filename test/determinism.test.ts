import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { SMALL_CATALOG, tempDir, writeRaw } from './helpers/raw-fixture.js';

describe('deterministic output', () => {
  it('compiles the same raw input to byte-identical shards and the same build id', async () => {
    const raw = writeRaw(SMALL_CATALOG);
    const a = await compileCatalog({ rawDir: raw, outDir: tempDir() });
    const b = await compileCatalog({ rawDir: writeRaw(SMALL_CATALOG), outDir: tempDir() });
    expect(a.buildId).toBe(b.buildId);
    const files = readdirSync(a.snapshotDir).sort();
    expect(readdirSync(b.snapshotDir).sort()).toEqual(files);
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      expect(readFileSync(join(b.snapshotDir, file)).equals(readFileSync(join(a.snapshotDir, file))), file).toBe(true);
    }
  });

  it('changes the build id when any input byte changes', async () => {
    const a = await compileCatalog({ rawDir: writeRaw(SMALL_CATALOG), outDir: tempDir() });
    const changed = { ...SMALL_CATALOG, songs: SMALL_CATALOG.songs.replace('Song A', 'Song A!') };
    const b = await compileCatalog({ rawDir: writeRaw(changed), outDir: tempDir() });
    expect(b.buildId).not.toBe(a.buildId);
  });
});
