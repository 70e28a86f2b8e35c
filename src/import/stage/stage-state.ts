import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunWriter } from '../../sort/run-files.js';
import { currentFileFacts } from '../../raw/file-facts.js';
import { ImportError } from '../import-error.js';
import { MARKER_VERSION, PREVIOUS_VERSION, StageKind, type StageRecordWriter, VERSION_BYTES } from './stage-keys.js';
import type { IdGroup } from './id-groups.js';

/**
 * What a streamed import leaves beside the raw catalog it writes, so that the next delivery can
 * be applied to it (`omm import ... --into <raw-dir>`) with the same result as importing every
 * delivery at once: `<raw-dir>/.omm-stage/`, one sorted run file per stage sorter (albums, songs,
 * artists) holding, for every id ever staged, its latest version's records, whether it is in the
 * raw catalog, whether it stands on its own, and how many surviving things refer to it; and
 * `state.json`, the format and each raw file's size and SHA-256 as the import wrote them, so a
 * raw catalog edited since is refused instead of silently overwritten.
 *
 * An import applied id by id (sparse-apply.ts) leaves the run files it found as they were and
 * writes the state of every id touched since they were written beside them, in a second, recent
 * run per sorter (`<sorter>.recent.run`; state-layers.ts): an id's state is its records there
 * when it has any, else in the first. The manifest then says so, in format 2; format 1 has no
 * recent runs, and is what an import that writes the whole state leaves.
 */
export const STATE_DIR = '.omm-stage';
/** The format of a state without recent runs, and of one with them. */
export const STATE_FORMAT = 1;
export const LAYERED_STATE_FORMAT = 2;
const MANIFEST = 'state.json';

export type StageSorterName = 'albums' | 'songs' | 'artists';
export const STAGE_SORTERS: readonly StageSorterName[] = ['albums', 'songs', 'artists'];

interface StateManifest {
  readonly format: number;
  /** Each raw file the import wrote: its size and SHA-256. */
  readonly files: Record<string, { readonly size: number; readonly sha256: string }>;
  /** Format 2: the sorters that have a recent run. */
  readonly recent?: readonly StageSorterName[];
}

/**
 * The previous import's state: a sorted run file per stage sorter, the recent run of those that
 * have one, and the raw catalog it describes.
 */
export type StageStateRuns = Readonly<Record<StageSorterName, string>> & {
  readonly rawDir: string;
  readonly recent: Readonly<Partial<Record<StageSorterName, string>>>;
};

/** The path of a sorter's recent run in the state of `rawDir`. */
export const recentRunPath = (rawDir: string, sorter: StageSorterName): string => join(rawDir, STATE_DIR, `${sorter}.recent.run`);

/** A raw file as the import state records it. */
export interface StateFile {
  readonly size: number;
  readonly sha256: string;
}

/** Writes the state of one import as its groups go by, each sorter's in key order. */
export class StageStateWriter {
  private readonly dir: string;
  private readonly runs: Record<StageSorterName, RunWriter>;
  private scratch = Buffer.allocUnsafe(64 * 1024);
  /** The Previous record's value (version, present flag) and RefCount's, reused for every id. */
  private readonly previousValue = Buffer.allocUnsafe(VERSION_BYTES + 1);
  private readonly refCount = Buffer.allocUnsafe(4);

  constructor(
    private readonly rawDir: string,
    private readonly keys: StageRecordWriter,
  ) {
    this.dir = join(rawDir, STATE_DIR);
    mkdirSync(this.dir, { recursive: true });
    this.runs = {
      albums: new RunWriter(join(this.dir, 'albums.run')),
      songs: new RunWriter(join(this.dir, 'songs.run')),
      artists: new RunWriter(join(this.dir, 'artists.run')),
    };
  }

  /**
   * An id's state: the Previous word for the next import (its latest version and whether it is
   * in the raw catalog now), its latest records, Keep, and the count of what refers to it.
   */
  group(sorter: StageSorterName, group: IdGroup, present: boolean, refs: number): void {
    group.version.copy(this.previousValue, 0);
    this.previousValue[VERSION_BYTES] = present ? 1 : 0;
    this.add(sorter, this.keys.key(group.id, PREVIOUS_VERSION, StageKind.Previous, 0), this.previousValue);
    for (const r of group.latest) this.add(sorter, this.keys.key(group.id, group.version, r.kind, r.sequence), r.value);
    if (group.keep) this.add(sorter, this.keys.key(group.id, MARKER_VERSION, StageKind.Keep, 0), EMPTY);
    if (refs > 0) {
      this.refCount.writeUInt32BE(refs, 0);
      this.add(sorter, this.keys.key(group.id, MARKER_VERSION, StageKind.RefCount, 0), this.refCount);
    }
  }

  /** Closes the run files and records the raw files as written; returns what it recorded. */
  finish(rawFiles: readonly string[]): Record<string, StateFile> {
    this.closeRuns();
    const files: Record<string, StateFile> = {};
    for (const file of rawFiles) files[file] = { size: statSync(join(this.rawDir, file)).size, sha256: sha256Of(join(this.rawDir, file)) };
    writeStateManifest(this.rawDir, files);
    return files;
  }

  /** Closes the run files (their paths: runPath). */
  closeRuns(): void {
    for (const name of STAGE_SORTERS) this.runs[name].close();
  }

  runPath(sorter: StageSorterName): string {
    return this.runs[sorter].path;
  }

  /** Closes the run files without recording anything (a failed import: its work directory is removed). */
  abandon(): void {
    for (const name of STAGE_SORTERS) {
      try {
        this.runs[name].close();
      } catch {
        // already closed, or the disk failed: the work directory goes anyway
      }
    }
  }

  private add(sorter: StageSorterName, key: Buffer, value: Uint8Array): void {
    const bytes = 8 + key.length + value.length;
    if (bytes > this.scratch.length) this.scratch = Buffer.allocUnsafe(bytes * 2);
    const out = this.scratch;
    out.writeUInt32LE(key.length, 0);
    out.writeUInt32LE(value.length, 4);
    key.copy(out, 8);
    out.set(value, 8 + key.length);
    this.runs[sorter].add(out, 0, bytes);
  }
}

const EMPTY = new Uint8Array(0);

/**
 * Records the raw files of `rawDir` as an import wrote them, in the state beside it (whose run
 * files are already there), and the sorters that have a recent run.
 */
export function writeStateManifest(rawDir: string, files: Readonly<Record<string, StateFile>>, recent: readonly StageSorterName[] = []): void {
  const sorted: Record<string, StateFile> = {};
  for (const file of Object.keys(files).sort()) sorted[file] = { size: files[file].size, sha256: files[file].sha256 };
  const manifest: StateManifest =
    recent.length > 0
      ? { format: LAYERED_STATE_FORMAT, files: sorted, recent: STAGE_SORTERS.filter((s) => recent.includes(s)) }
      : { format: STATE_FORMAT, files: sorted };
  mkdirSync(join(rawDir, STATE_DIR), { recursive: true });
  writeFileSync(join(rawDir, STATE_DIR, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * The state a previous import left in `rawDir`, checked: it exists, is of this format, and every
 * raw file is as that import wrote it (size, then SHA-256 when the size agrees).
 */
export function openStageState(rawDir: string): StageStateRuns {
  const dir = join(rawDir, STATE_DIR);
  const manifestPath = join(dir, MANIFEST);
  if (!existsSync(manifestPath)) {
    throw new ImportError(
      'E_IMPORT_STATE',
      { file: rawDir },
      `has no import state (${STATE_DIR}/${MANIFEST}): --into applies a delivery to a raw catalog that omm import ddex or musicbrainz wrote; import the deliveries it came from without --into`,
    );
  }
  let manifest: StateManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as StateManifest;
  } catch (err) {
    throw new ImportError('E_IMPORT_STATE', { file: manifestPath }, `is not readable JSON: ${(err as Error).message}`);
  }
  if (manifest.format !== STATE_FORMAT && manifest.format !== LAYERED_STATE_FORMAT)
    throw new ImportError(
      'E_IMPORT_STATE',
      { file: manifestPath },
      `import state format ${manifest.format}, this omm reads ${STATE_FORMAT} and ${LAYERED_STATE_FORMAT}: import the deliveries again without --into`,
    );
  // A file the import's facts (raw/file-facts.ts) still describe, with this size and digest, is not read again.
  const facts = currentFileFacts(rawDir);
  for (const [file, want] of Object.entries(manifest.files)) {
    const path = join(rawDir, file);
    const size = statSync(path, { throwIfNoEntry: false })?.size;
    const known = facts.get(file);
    if (known && known.size === want.size && known.sha256 === want.sha256) continue;
    if (size !== want.size || sha256Of(path) !== want.sha256) {
      throw new ImportError(
        'E_IMPORT_STATE',
        { file: path },
        'changed since the import that wrote it: --into would overwrite the change; import the deliveries again without --into, or restore the file',
      );
    }
  }
  const recent: Partial<Record<StageSorterName, string>> = {};
  for (const sorter of manifest.format === LAYERED_STATE_FORMAT ? (manifest.recent ?? []) : []) recent[sorter] = recentRunPath(rawDir, sorter);
  const runs = { albums: join(dir, 'albums.run'), songs: join(dir, 'songs.run'), artists: join(dir, 'artists.run'), rawDir, recent };
  for (const path of [runs.albums, runs.songs, runs.artists, ...Object.values(recent)])
    if (!existsSync(path)) throw new ImportError('E_IMPORT_STATE', { file: path }, 'is missing from the import state');
  return runs;
}

/** The SHA-256 of a file, read a block at a time. */
function sha256Of(path: string): string {
  const hash = createHash('sha256');
  const block = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(path, 'r');
  try {
    for (let n = readSync(fd, block); n > 0; n = readSync(fd, block)) hash.update(block.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}
