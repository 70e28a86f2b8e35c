import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { Snapshot, verifySnapshot } from '../src/index-format/index.js';
import { writeBulkRaw } from './helpers/bulk-raw.js';
import { SMALL_CATALOG, tempDir, writeRaw } from './helpers/raw-fixture.js';

const omm = fileURLToPath(new URL('../bin/omm', import.meta.url));

function compileAndKill(raw: string, out: string, afterMs: number): Promise<NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [omm, 'compile', raw, '--out', out, '--quiet'], { stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), afterMs);
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve(signal);
    });
  });
}

describe('a compile killed at any moment leaves the previous snapshot servable', () => {
  it('survives SIGKILL at many points of a compile', async () => {
    const out = tempDir();
    const old = await compileCatalog({ rawDir: writeRaw(SMALL_CATALOG), outDir: out });
    const pointer = readFileSync(join(out, 'current'), 'utf8');
    const bulk = writeBulkRaw(60_000);
    let killed = 0;
    for (const delay of [150, 300, 500, 700, 900, 1200, 1600, 2000]) {
      const signal = await compileAndKill(bulk, out, delay);
      const snap = Snapshot.open(out);
      const current = readFileSync(join(out, 'current'), 'utf8');
      if (signal === 'SIGKILL' && current === pointer) {
        killed++;
        expect(snap.buildId).toBe(old.buildId);
        expect(snap.records('songs').get(snap.keys('song.id').get('103'))).toMatchObject({ name: 'Quote "Q"' });
      }
      expect(verifySnapshot(out).problems).toEqual([]);
      snap.close();
      if (current !== pointer) break; // the new snapshot made it: nothing left to interrupt
    }
    expect(killed).toBeGreaterThan(0);
    // The next compile cleans up what the killed ones left and publishes.
    const fresh = await compileCatalog({ rawDir: bulk, outDir: out });
    expect(readdirSync(out).filter((n) => n.startsWith('.staging') || n.startsWith('.spill'))).toEqual([]);
    expect(Snapshot.open(out).buildId).toBe(fresh.buildId);
  }, 120_000);
});
