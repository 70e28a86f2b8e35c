import { closeSync, copyFileSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { BODY_OFFSET, H } from '../src/index-format/constants.js';
import { FormatError, nativeMmapAvailable, Snapshot, verifySnapshot } from '../src/index-format/index.js';
import { SMALL_CATALOG, tempDir, writeRaw } from './helpers/raw-fixture.js';

/** Reads every record, key and array of a snapshot through the public reader. */
function readEverything(dir: string, mode: 'pread' | 'mmap'): unknown {
  const snap = Snapshot.open(dir, { mode });
  try {
    return readOpen(snap);
  } finally {
    snap.close();
  }
}

/** Reads every record (views too), key and array of an open snapshot. */
function readOpen(snap: Snapshot): unknown {
  const out: unknown[] = [];
  const recordTables = [...new Set(snap.listShards().flatMap(({ entry }) => (entry.kind === 'RECS' ? [entry.name] : [])))];
  for (const table of recordTables) {
    const records = snap.records(table);
    for (let i = 0; i < records.count; i++) out.push(table.startsWith('view-') ? records.raw(i).toString('base64') : records.get(i));
  }
  for (const { entry } of snap.listShards()) {
    if (entry.kind === 'KEYS') {
      const keys = snap.keys(entry.name);
      for (const probe of ['1', '10', '100', '103', 'p1', 'focus', 'popular', 'rock', 'USRC17607839', '0036000291452', 'abcdefghij012345', 'missing'])
        out.push(keys.getAll(probe));
    } else if (entry.kind === 'ARRS') {
      const arrays = snap.arrays(entry.name);
      for (const name of arrays.names()) out.push([...arrays.column(name).slice(0, 1e9)]);
    } else if (entry.kind === 'BLOB') {
      const shard = snap.blob(entry.name);
      for (const s of shard.directory.sections) out.push(shard.bytes(shard.section(s.name).start, s.length).toString('base64'));
    }
  }
  return out;
}

function expectedCodes(file: Buffer, at: number): string[] | 'none' {
  if (at < 8) return ['E_FORMAT_MAGIC'];
  if (at < 10) return ['E_FORMAT_VERSION'];
  if (at < 64) return ['E_CHECKSUM'];
  if (at < BODY_OFFSET) return 'none'; // padding of the header page: only verify notices
  const bodyEnd = BODY_OFFSET + Number(file.readBigUInt64LE(H.bodyLength));
  const dirStart = Number(file.readBigUInt64LE(H.directoryOffset));
  const dirEnd = dirStart + file.readUInt32LE(H.directoryLength);
  const crcStart = Number(file.readBigUInt64LE(H.crcTableOffset));
  if (at < bodyEnd || (at >= dirStart && at < dirEnd) || at >= crcStart) return ['E_CHECKSUM'];
  return 'none'; // alignment padding
}

const modes = nativeMmapAvailable() ? (['pread', 'mmap'] as const) : (['pread'] as const);

describe.each(modes)('corrupt snapshots raise typed errors (%s)', (mode) => {
  let original: string;
  let files: string[];
  let baseline: unknown;
  let baselineSnapshotSong: unknown;
  beforeAll(async () => {
    const result = await compileCatalog({ rawDir: writeRaw(SMALL_CATALOG), outDir: tempDir() });
    original = result.snapshotDir;
    files = readdirSync(original)
      .filter((f) => f !== 'rejects.csv')
      .sort();
    baseline = readEverything(original, mode);
    const snap = Snapshot.open(original, { mode });
    baselineSnapshotSong = snap.records('songs').get(0);
    snap.close();
  });
  const copy = (): string => {
    const dir = tempDir('omm-corrupt-');
    mkdirSync(dir, { recursive: true });
    for (const f of files) copyFileSync(join(original, f), join(dir, f));
    return dir;
  };

  it('a flipped bit anywhere is an error with the right code, or harmless padding that verify still catches', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: files.length - 1 }),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        fc.nat({ max: 7 }),
        (fileIndex, where, bit) => {
          const dir = copy();
          const path = join(dir, files[fileIndex]);
          const bytes = readFileSync(path);
          const at = Math.floor(where * bytes.length);
          const expected = expectedCodes(bytes, at);
          bytes[at] ^= 1 << bit;
          writeFileSync(path, bytes);
          let error: unknown;
          let result: unknown;
          try {
            result = readEverything(dir, mode);
          } catch (err) {
            error = err;
          }
          if (error) {
            expect(error, String(error)).toBeInstanceOf(FormatError);
            expect(expected === 'none' ? [] : expected).toContain((error as FormatError).code);
          } else {
            expect(expected).toBe('none');
            expect(result).toEqual(baseline);
          }
          expect(verifySnapshot(dir, { mode }).problems.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 150, seed: 20261123 },
    );
  });

  // Every byte of a snapshot is covered: by a CRC (header, directory, body pages, the CRC table
  // itself), by the rule that padding is zero, and for listed shards by the manifest's SHA-256.
  // The manifest is listed nowhere, so before the padding rule its header page (bytes 64..4095)
  // was covered by nothing: flipping bytes there passed verify.
  it('verify catches a flipped byte at every padding gap of every shard, and anywhere in the manifest', () => {
    // One copy, each byte flipped in place, verified, and flipped back.
    const dir = copy();
    const flipped = (file: string, at: number): number => {
      const fd = openSync(join(dir, file), 'r+');
      try {
        const byte = Buffer.alloc(1);
        readSync(fd, byte, 0, 1, at);
        writeSync(fd, Buffer.of(byte[0] ^ 0x5a), 0, 1, at);
        const problems = verifySnapshot(dir, { mode }).problems.length;
        writeSync(fd, byte, 0, 1, at);
        return problems;
      } finally {
        closeSync(fd);
      }
    };
    let checked = 0;
    for (const file of files) {
      const bytes = readFileSync(join(original, file));
      const dirStart = Number(bytes.readBigUInt64LE(H.directoryOffset));
      const gaps: [number, number][] = [
        [64, BODY_OFFSET],
        [BODY_OFFSET + Number(bytes.readBigUInt64LE(H.bodyLength)), dirStart],
        [dirStart + bytes.readUInt32LE(H.directoryLength), Number(bytes.readBigUInt64LE(H.crcTableOffset))],
      ];
      for (const [from, to] of gaps) {
        for (const at of new Set([from, (from + to) >> 1, to - 1])) {
          if (at < from || at >= to) continue;
          expect(flipped(file, at), `${file} byte ${at}`).toBeGreaterThan(0);
          checked++;
        }
      }
    }
    const manifest = readFileSync(join(original, 'manifest.omm'));
    for (let at = 0; at < manifest.length; at += 37) {
      expect(flipped('manifest.omm', at), `manifest.omm byte ${at}`).toBeGreaterThan(0);
      checked++;
    }
    expect(checked).toBeGreaterThan(files.length * 2);
    // Every flip was put back: no flip above was seen through an earlier one left in place.
    expect(verifySnapshot(dir, { mode }).problems).toEqual([]);
  });

  it('a truncated shard is E_FORMAT_TRUNCATED', () => {
    fc.assert(
      fc.property(fc.nat({ max: files.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (fileIndex, where) => {
        const dir = copy();
        const path = join(dir, files[fileIndex]);
        const size = readFileSync(path).length;
        truncateSync(path, Math.floor(where * size));
        expect(() => readEverything(dir, mode)).toThrow(expect.objectContaining({ code: 'E_FORMAT_TRUNCATED' }));
        expect(verifySnapshot(dir, { mode }).problems[0].code).toBe('E_FORMAT_TRUNCATED');
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it('a shard from another build is E_SNAPSHOT_MISMATCH', async () => {
    const other = await compileCatalog({ rawDir: writeRaw({ ...SMALL_CATALOG, songs: SMALL_CATALOG.songs.replace('Song A', 'Song Z') }), outDir: tempDir() });
    const dir = copy();
    copyFileSync(join(other.snapshotDir, 'artist.id.keys'), join(dir, 'artist.id.keys'));
    // A table's shards are read when it is first used: the snapshot opens, that table refuses.
    const snap = Snapshot.open(dir, { mode });
    try {
      expect(snap.records('songs').get(0)).toEqual(baselineSnapshotSong);
      expect(() => snap.keys('artist.id')).toThrow(expect.objectContaining({ code: 'E_SNAPSHOT_MISMATCH' }));
      // And again: a table that failed to open fails the same way on every later use.
      expect(() => snap.keys('artist.id')).toThrow(expect.objectContaining({ code: 'E_SNAPSHOT_MISMATCH' }));
    } finally {
      snap.close();
    }
    expect(verifySnapshot(dir, { mode }).problems).toEqual([expect.objectContaining({ file: 'artist.id.keys', code: 'E_SNAPSHOT_MISMATCH' })]);
  });

  it('an open snapshot keeps reading tables it had not read yet after its directory is removed', () => {
    const dir = copy();
    const snap = Snapshot.open(dir, { mode });
    try {
      rmSync(dir, { recursive: true, force: true });
      expect(readOpen(snap)).toEqual(baseline);
    } finally {
      snap.close();
    }
  });

  it('a missing snapshot is E_SNAPSHOT_MISSING', () => {
    expect(() => Snapshot.open(tempDir(), { mode })).toThrow(expect.objectContaining({ code: 'E_SNAPSHOT_MISSING' }));
  });
});
