import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { spillStats } from '../src/sort/spill-stats.js';
import { generateCatalog } from '../src/generate/generate.js';
import { Snapshot, verifySnapshot } from '../src/index-format/index.js';
import { writeBulkRaw } from './helpers/bulk-raw.js';
import { tempDir } from './helpers/raw-fixture.js';

const omm = fileURLToPath(new URL('../bin/omm', import.meta.url));
const workDirs = (out: string) => readdirSync(out).filter((n) => n.startsWith('.spill-') || n.startsWith('.staging-'));
const files = (dir: string) => readdirSync(dir).sort();

/** Every *.run file under the dist directory's spill directories. */
function runFiles(out: string): string[] {
  if (!existsSync(out)) return [];
  return readdirSync(out)
    .filter((n) => n.startsWith('.spill-'))
    .flatMap((d) => {
      try {
        return readdirSync(join(out, d)).filter((f) => f.endsWith('.run'));
      } catch {
        return [];
      }
    });
}

describe('a compile within a tiny memory budget (out of core)', () => {
  it('spills and merges many sorted runs and writes the same bytes as with the default budget', async () => {
    const raw = tempDir('omm-ooc-raw-');
    await generateCatalog({ out: raw, songs: 20_000, seed: 3 });
    spillStats.runs = 0;
    const small = await compileCatalog({ rawDir: raw, outDir: tempDir('omm-ooc-small-'), memoryBytes: 256 * 1024 });
    const runs = spillStats.runs;
    spillStats.runs = 0;
    const roomy = await compileCatalog({ rawDir: raw, outDir: tempDir('omm-ooc-roomy-') });
    expect(runs).toBeGreaterThan(100);
    expect(spillStats.runs).toBe(0);
    expect(small.buildId).toBe(roomy.buildId);
    expect(files(small.snapshotDir)).toEqual(files(roomy.snapshotDir));
    for (const file of files(small.snapshotDir)) {
      expect(readFileSync(join(small.snapshotDir, file)).equals(readFileSync(join(roomy.snapshotDir, file))), file).toBe(true);
    }
    // The built CLI runs the same work on worker threads (songs resolved, the
    // songs table and the song views written in ranges): the same bytes again.
    const threaded = tempDir('omm-ooc-threaded-');
    const cli = spawnSync(process.execPath, [omm, 'compile', raw, '--out', threaded, '--quiet'], { encoding: 'utf8' });
    expect(cli.status, cli.stderr).toBe(0);
    const threadedDir = join(threaded, readFileSync(join(threaded, 'current'), 'utf8').trim());
    expect(files(threadedDir)).toEqual(files(roomy.snapshotDir));
    for (const file of files(roomy.snapshotDir)) {
      expect(readFileSync(join(threadedDir, file)).equals(readFileSync(join(roomy.snapshotDir, file))), file).toBe(true);
    }
    for (const result of [small, roomy]) expect(workDirs(join(result.snapshotDir, '..', '..'))).toEqual([]);
    expect(small.manifest.counts.songs).toBe(20_000);
    // The songs table is written in two halves at once (song-records.ts), named as one table:
    // every song is where its id says, in order.
    expect(files(small.snapshotDir).filter((f) => f.startsWith('songs.') && f.endsWith('.rec'))).toEqual(['songs.0000.rec', 'songs.0001.rec']);
    const snap = Snapshot.open(small.snapshotDir);
    const songs = snap.records('songs');
    const ids = snap.keys('song.id');
    expect(songs.count).toBe(20_000);
    for (let o = 0; o < songs.count; o++) expect(ids.get(songs.get<{ id: string }>(o).id)).toBe(o);
    snap.close();
  }, 300_000);

  it('a compile killed with SIGKILL while its sorted runs are on disk leaves nothing the next compile trips on', async () => {
    const out = tempDir('omm-ooc-kill-');
    const bulk = writeBulkRaw(60_000);
    const seenRuns = await new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, [omm, 'compile', bulk, '--out', out, '--memory', '64m', '--quiet'], { stdio: 'ignore' });
      let seen = 0;
      const poll = setInterval(() => {
        seen = runFiles(out).length;
        if (seen > 0) child.kill('SIGKILL');
      }, 5);
      child.on('error', reject);
      child.on('exit', () => {
        clearInterval(poll);
        resolve(seen);
      });
    });
    expect(seenRuns).toBeGreaterThan(0);
    expect(readdirSync(out).some((n) => n.startsWith('.spill-'))).toBe(true);
    expect(existsSync(join(out, 'current'))).toBe(false);

    const result = await compileCatalog({ rawDir: bulk, outDir: out });
    expect(workDirs(out)).toEqual([]);
    expect(verifySnapshot(out).problems).toEqual([]);
    const snap = Snapshot.open(out);
    expect(snap.buildId).toBe(result.buildId);
    expect(snap.records('songs').get(snap.keys('song.id').get('s59999'))).toMatchObject({ name: 'Song number 59999 of the bulk' });
    snap.close();
  }, 300_000);

  it('a failed compile removes its spill directory and leaves the previous snapshot', async () => {
    const out = tempDir('omm-ooc-fail-');
    const good = await compileCatalog({ rawDir: writeBulkRaw(2_000), outDir: out });
    const bad = writeBulkRaw(2_000);
    await expect(compileCatalog({ rawDir: join(bad, 'missing'), outDir: out })).rejects.toThrow(/required file is missing/);
    expect(workDirs(out)).toEqual([]);
    expect(Snapshot.open(out).buildId).toBe(good.buildId);
  }, 120_000);
});
