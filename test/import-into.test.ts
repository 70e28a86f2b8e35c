import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { CHANGES_DIR, changesAfter, journalPosition } from '../src/raw/change-journal.js';
import { FILE_FACTS } from '../src/raw/file-facts.js';
import { afterAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { generateCatalog } from '../src/generate/generate.js';
import { readDdex } from '../src/import/ddex/read-ddex.js';
import { ImportError } from '../src/import/import-error.js';
import { runStreamedImport, type StreamedImportSummary } from '../src/import/stage/run-import.js';
import { unitDigest } from '../src/import/stage/source-unit.js';
import { openStageState, STAGE_SORTERS, STATE_DIR } from '../src/import/stage/stage-state.js';
import { foldedRun } from '../src/import/stage/state-layers.js';
import type { CatalogSink, SourceUnit, StagedArtist, StagedSong } from '../src/import/stage/staged.js';
import { tempDir } from './helpers/raw-fixture.js';

/*
 * Applying a delivery to the raw catalog a previous import wrote (--into) against importing
 * everything at once, on random deliveries at the stage's level: releases that share songs and
 * artists, updates with other tracks and credits, takedowns (also before the release they take
 * down), songs and artists on their own, units at the same time, the same unit twice.
 */

const root = tempDir('omm-into-');
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const fresh = (): string => join(root, String(dirs++));

/** One thing a unit says. */
type Word =
  | { kind: 'release'; album: number; title: number; tracks: number[]; credits: number[] }
  | { kind: 'takedown'; album: number }
  | { kind: 'song'; song: number; title: number }
  | { kind: 'artist'; artist: number; title: number };

interface Unit {
  readonly time: number;
  readonly words: readonly Word[];
}

const artistOf = (a: number, title: number): StagedArtist => ({ id: `ar${a}`, name: `Artist ${a} v${title}` });
const songOf = (s: number, title: number): StagedSong => ({
  id: `s${s}`,
  name: `Song ${s} v${title}`,
  isrc: `USAAA${String(10000000 + s).slice(1)}`,
  artists: [artistOf(s % 7, title)],
});

/** A unit as a streamed importer hands it over: its time and digest, then what it says. */
function say(sink: CatalogSink, unit: Unit, index: number): void {
  const text = JSON.stringify(unit);
  const source: SourceUnit = { where: `unit-${index}`, created: `2026-01-01T00:00:${String(unit.time).padStart(2, '0')}.0000000Z`, digest: unitDigest(text) };
  for (const w of unit.words) {
    if (w.kind === 'release') {
      sink.release(source, {
        id: `al${w.album}`,
        name: `Album ${w.album} v${w.title}`,
        artists: w.credits.map((a) => artistOf(a, w.title)),
        tracks: w.tracks.map((s, i) => ({ song: songOf(s, w.title), discNumber: 1, trackNumber: i + 1 })),
      });
    } else if (w.kind === 'takedown') sink.takedown(source, `al${w.album}`);
    else if (w.kind === 'song') sink.song(source, songOf(w.song, w.title));
    else sink.artist(source, artistOf(w.artist, w.title));
  }
}

const word: fc.Arbitrary<Word> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('release' as const),
      album: fc.nat(12),
      title: fc.nat(3),
      tracks: fc.uniqueArray(fc.nat(30), { minLength: 1, maxLength: 5 }),
      credits: fc.uniqueArray(fc.nat(9), { minLength: 1, maxLength: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('takedown' as const), album: fc.nat(12) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('song' as const), song: fc.nat(40), title: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('artist' as const), artist: fc.nat(12), title: fc.nat(3) }) },
);
const unit: fc.Arbitrary<Unit> = fc.record({ time: fc.nat(20), words: fc.array(word, { minLength: 1, maxLength: 4 }) });
/** Two deliveries; some units of the first appear again in the second (a resent message). */
const deliveries = fc
  .tuple(fc.array(unit, { maxLength: 12 }), fc.array(unit, { maxLength: 12 }), fc.array(fc.nat(11), { maxLength: 3 }))
  .map(([a, b, resent]) => ({ a, b: [...b, ...resent.filter((i) => i < a.length).map((i) => a[i])] }));

/**
 * With 256 KiB an import applied to a previous one holds every id a delivery here touches and
 * applies it id by id (sparse-apply.ts); with 1 KiB it holds 6 and applies most by the full merge.
 */
async function importUnits(
  out: string,
  units: readonly Unit[],
  into = false,
  { memoryBytes = 256 * 1024, foldFraction }: { memoryBytes?: number; foldFraction?: number } = {},
): Promise<StreamedImportSummary> {
  return runStreamedImport('test', { out, into, progress: null, memoryBytes, foldFraction }, async (sink) => {
    units.forEach((u, i) => say(sink, u, i));
  });
}

/**
 * Every file of a raw directory, the import state's included, by name. `journal: false` leaves
 * the change journal out: it is the history of the deliveries, which importing them at once has
 * not. The files' facts are left out: they hold the files' times and inodes (raw/file-facts.ts).
 */
function files(dir: string, { journal = true } = {}): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string, prefix: string) => {
    for (const name of readdirSync(at).sort()) {
      if (!journal && name === CHANGES_DIR) continue;
      if (prefix === `${CHANGES_DIR}/` && name === FILE_FACTS) continue;
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path, `${prefix}${name}/`);
      else out[`${prefix}${name}`] = readFileSync(path, 'latin1');
    }
  };
  walk(dir, '');
  return out;
}

/**
 * A raw directory as `files` gives it, but its import state as what it says rather than how it is
 * laid out: each sorter's runs folded into one (an import applied id by id keeps recent runs
 * beside the first, state-layers.ts) and the raw files the state records.
 */
function catalog(dir: string, { journal = true } = {}): Record<string, string> {
  const out = Object.fromEntries(Object.entries(files(dir, { journal })).filter(([name]) => !name.startsWith(`${STATE_DIR}/`)));
  const runs = openStageState(dir);
  const work = fresh();
  mkdirSync(work, { recursive: true });
  for (const sorter of STAGE_SORTERS) out[`state ${sorter}`] = readFileSync(foldedRun(runs, sorter, work), 'latin1');
  out['state files'] = JSON.stringify(JSON.parse(readFileSync(join(dir, STATE_DIR, 'state.json'), 'utf8')).files);
  rmSync(work, { recursive: true, force: true });
  return out;
}

describe('omm import --into: a delivery applied to the raw catalog already there', () => {
  it('gives the bytes of importing both at once, in either order, and re-applying changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(deliveries, async ({ a, b }) => {
        const once = fresh();
        await importUnits(once, [...a, ...b]);
        const expected = catalog(once);

        const aThenB = fresh();
        await importUnits(aThenB, a);
        await importUnits(aThenB, b, true);
        expect(catalog(aThenB, { journal: false })).toEqual(expected);

        const bThenA = fresh();
        await importUnits(bThenA, b);
        await importUnits(bThenA, a, true);
        expect(catalog(bThenA, { journal: false })).toEqual(expected);

        const merged = fresh();
        await importUnits(merged, a);
        await importUnits(merged, b, true, { memoryBytes: 1024 });
        expect(catalog(merged)).toEqual(catalog(aThenB));

        // b in three deliveries whose state stays in recent runs: each reads and rewrites them.
        const thirds = fresh();
        await importUnits(thirds, a);
        const third = Math.ceil(b.length / 3);
        for (const part of [b.slice(0, third), b.slice(third, 2 * third), b.slice(2 * third)])
          await importUnits(thirds, part, true, { foldFraction: Infinity });
        expect(catalog(thirds, { journal: false })).toEqual(expected);

        const journal = catalog(aThenB);
        const again = await importUnits(aThenB, b, true);
        // Nothing changed: the same catalog and state, and no journal file for it.
        expect(catalog(aThenB)).toEqual(journal);
        expect(again.releasesAdded + again.releasesUpdated + again.songsAdded + again.songsRemoved + again.artistsAdded + again.artistsRemoved).toBe(0);
        // A takedown already applied is not taken down again.
        expect(again.albumsTakenDown).toBe(0);
      }),
      { numRuns: 60, seed: 41, endOnFailure: true },
    );
  });

  it('says what a delivery changed: releases added, updated, taken down and unchanged, songs and artists added and removed', async () => {
    const out = fresh();
    const release = (album: number, title: number, tracks: number[], credits: number[]): Word => ({ kind: 'release', album, title, tracks, credits });
    await importUnits(out, [{ time: 1, words: [release(1, 0, [1, 2], [1]), release(2, 0, [3], [2]), release(3, 0, [4], [3])] }]);
    const s = await importUnits(out, [{ time: 2, words: [release(2, 1, [3, 5], [2]), { kind: 'takedown', album: 3 }, release(4, 0, [6], [4])] }], true);
    expect(s.into).toBe(true);
    expect([s.releasesAdded, s.releasesUpdated, s.albumsTakenDown, s.releasesUnchanged]).toEqual([1, 1, 1, 1]);
    // Songs 5 and 6 came, song 4 went with album 3. Artists (song n credits ar(n % 7)): ar5 and
    // ar6 came with songs 5 and 6; ar3 lost album 3's credit but keeps song 3's, ar4 lost song 4
    // but has album 4's credit: none went.
    expect([s.songsAdded, s.songsRemoved]).toEqual([2, 1]);
    expect([s.artistsAdded, s.artistsRemoved]).toEqual([2, 0]);
    const csv = readFileSync(join(out, 'albums.csv'), 'utf8');
    expect(csv).toContain('Album 2 v1');
    expect(csv).not.toContain('al3');
    // The change journal says the same, resource by resource: one file for this delivery.
    expect(journalPosition(out)).toBe(1);
    const lines = [...changesAfter(out, 0)];
    const count = (type: string, change: string) => lines.filter((l) => l.type === type && l.change === change).length;
    expect([count('album', 'added'), count('album', 'updated'), count('album', 'removed')]).toEqual([1, 1, 1]);
    expect([count('song', 'added'), count('song', 'removed')]).toEqual([2, 1]);
    expect([count('artist', 'added'), count('artist', 'removed')]).toEqual([2, 0]);
    const albums = lines.filter((l) => l.type === 'album').map((l) => `${l.id} ${l.change}`);
    expect(albums).toEqual(
      expect.arrayContaining([expect.stringMatching(/2 updated$/), expect.stringMatching(/3 removed$/), expect.stringMatching(/4 added$/)]),
    );
    // Song 3 is on album 2's new version: its row came again with it.
    expect(lines.filter((l) => l.type === 'song' && l.change === 'updated').length).toBeGreaterThan(0);
    // The next delivery is the next file, the first one kept; one that changes nothing adds none.
    await importUnits(out, [{ time: 3, words: [release(5, 0, [7], [1])] }], true);
    expect(journalPosition(out)).toBe(2);
    expect([...changesAfter(out, 1)].filter((l) => l.type === 'album')).toEqual([expect.objectContaining({ change: 'added', sequence: 2 })]);
    await importUnits(out, [{ time: 3, words: [release(5, 0, [7], [1])] }], true);
    expect(journalPosition(out)).toBe(2);
    // A compile records where the journal stood; the same catalog without one compiles to the same build, without the field.
    const withJournal = await compileCatalog({ rawDir: out, outDir: fresh() });
    expect(withJournal.manifest.changes).toBe(2);
    rmSync(join(out, CHANGES_DIR), { recursive: true });
    const without = await compileCatalog({ rawDir: out, outDir: fresh() });
    expect(without.manifest.changes).toBeUndefined();
    expect(without.buildId).toBe(withJournal.buildId);
  });

  it('refuses a raw catalog without an import state, or edited since, and leaves it as it was', async () => {
    const out = fresh();
    await importUnits(out, [{ time: 1, words: [{ kind: 'release', album: 1, title: 0, tracks: [1], credits: [1] }] }]);
    const before = files(out);
    rmSync(join(out, '.omm-stage', 'state.json'));
    const missing = await importUnits(out, [], true).catch((err: unknown) => err);
    expect(missing).toBeInstanceOf(ImportError);
    expect((missing as ImportError).code).toBe('E_IMPORT_STATE');
    expect((missing as ImportError).message).toMatch(/has no import state/);

    const edited = fresh();
    await importUnits(edited, [{ time: 1, words: [{ kind: 'release', album: 1, title: 0, tracks: [1], credits: [1] }] }]);
    const songs = join(edited, 'songs.csv');
    writeFileSync(songs, readFileSync(songs, 'utf8').replace('Song 1 v0', 'Song 1 v9'));
    const snapshot = files(edited);
    const err = await importUnits(edited, [{ time: 2, words: [{ kind: 'release', album: 2, title: 0, tracks: [2], credits: [1] }] }], true).catch(
      (e: unknown) => e,
    );
    expect((err as ImportError).code).toBe('E_IMPORT_STATE');
    expect((err as ImportError).message).toMatch(/songs\.csv.*changed since the import that wrote it/s);
    expect(files(edited)).toEqual(snapshot);
    expect(Object.keys(before).length).toBeGreaterThan(0);
  });

  it('leaves the raw catalog byte for byte as it was when reading a delivery fails mid-way', async () => {
    const out = fresh();
    await importUnits(out, [{ time: 1, words: [{ kind: 'release', album: 1, title: 0, tracks: [1], credits: [1] }] }]);
    const before = files(out);
    const failing = runStreamedImport('test', { out, into: true, progress: null }, async (sink) => {
      say(sink, { time: 2, words: [{ kind: 'takedown', album: 1 }] }, 0);
      throw new ImportError('E_IMPORT_SYNTAX', { file: 'bad.xml', line: 7 }, 'unexpected end of input');
    });
    await expect(failing).rejects.toThrow(/bad\.xml.*7/s);
    expect(files(out)).toEqual(before);
    expect(readdirSync(join(out, '..')).filter((n) => n.includes('.import-'))).toEqual([]);
  });

  it('applies a generated DDEX delivery (updates and takedowns) to the catalog its first messages made, as one batch would', async () => {
    const ddex = fresh();
    await generateCatalog({ songs: 3000, seed: 5, out: ddex, format: 'ddex' });
    const base = readdirSync(ddex)
      .filter((name) => name !== 'updates')
      .map((name) => join(ddex, name));
    const updates = [join(ddex, 'updates')];
    const viaDdex = (out: string, inputs: string[], into = false) =>
      runStreamedImport('DDEX', { out, into, progress: null }, (sink, report) => readDdex(inputs, sink, report));

    const once = fresh();
    await viaDdex(once, [...base, ...updates]);
    const stepwise = fresh();
    await viaDdex(stepwise, base);
    const s = await viaDdex(stepwise, updates, true);
    expect(catalog(stepwise, { journal: false })).toEqual(catalog(once));
    expect(s.releasesUpdated).toBeGreaterThan(0);
    expect(s.albumsTakenDown).toBeGreaterThan(0);
    expect(s.releasesAdded).toBe(0);
    // The delivery first, the catalog's first messages after: the later messages still win.
    const reversed = fresh();
    await viaDdex(reversed, updates);
    await viaDdex(reversed, base, true);
    expect(catalog(reversed, { journal: false })).toEqual(catalog(once));
  });

  it('leaves the raw catalog as it was when --into is killed at any moment, and the next run cleans up and applies', async () => {
    const omm = fileURLToPath(new URL('../bin/omm', import.meta.url));
    const ddex = fresh();
    await generateCatalog({ songs: 20000, seed: 9, out: ddex, format: 'ddex' });
    const base = readdirSync(ddex)
      .filter((name) => name !== 'updates')
      .map((name) => join(ddex, name));
    const out = join(fresh(), 'raw');
    await runStreamedImport('DDEX', { out, progress: null }, (sink, report) => readDdex(base, sink, report));
    const before = files(out);
    const importKilledAfter = (ms: number) =>
      new Promise<NodeJS.Signals | null>((resolve, reject) => {
        const child = spawn(process.execPath, [omm, 'import', 'ddex', ...base, join(ddex, 'updates'), '--into', out, '--memory', '4m'], { stdio: 'ignore' });
        const timer = setTimeout(() => child.kill('SIGKILL'), ms);
        child.on('error', reject);
        child.on('exit', (_code, signal) => {
          clearTimeout(timer);
          resolve(signal);
        });
      });
    let killed = 0;
    for (const ms of [300, 700, 1200, 1800]) {
      const signal = await importKilledAfter(ms);
      if (signal !== 'SIGKILL') break; // it finished: nothing left to interrupt
      killed++;
      expect(files(out)).toEqual(before);
      // (A kill before the child made its work directory leaves none: nothing to assert on it here.)
    }
    expect(killed).toBeGreaterThan(0);
    // The next run removes what the killed ones left, and applies the delivery.
    const s = await runStreamedImport('DDEX', { out, into: true, progress: null }, (sink, report) => readDdex([join(ddex, 'updates')], sink, report));
    expect(s.releasesUpdated).toBeGreaterThan(0);
    expect(readdirSync(dirname(out))).toEqual(['raw']);
  }, 120_000);

  it('puts the previous raw catalog back when an import was killed between the two renames that publish', async () => {
    const out = join(fresh(), 'raw');
    await importUnits(out, [{ time: 1, words: [{ kind: 'release', album: 1, title: 0, tracks: [1], credits: [1] }] }]);
    const before = files(out);
    // What publish leaves when killed after moving the old output aside and before moving the new one in.
    const work = join(dirname(out), '.raw.import-999999999-dead');
    mkdirSync(join(work, 'raw'), { recursive: true });
    renameSync(out, `${work}.previous`);
    await importUnits(out, [{ time: 2, words: [{ kind: 'release', album: 2, title: 0, tracks: [2], credits: [2] }] }], true);
    const albums = files(out)['albums.csv'];
    expect(albums.startsWith(before['albums.csv'])).toBe(true);
    expect(albums.slice(before['albums.csv'].length)).toMatch(/^al2,Album 2 v0,/);
    expect(readdirSync(dirname(out))).toEqual(['raw']);
  });
});
