import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FormatError } from './errors.js';
import { CURRENT_FILE, MANIFEST_FILE, SNAPSHOTS_DIR } from './manifest.js';

/**
 * Atomic publication of snapshots in a dist directory:
 *
 *   <dist>/snapshots/<build id>/...   one directory per snapshot, never changed once renamed in
 *   <dist>/current                    "snapshots/<build id>", replaced by rename
 *
 * A compile writes into a staging directory, fsyncs it, renames it into snapshots/, then flips
 * `current` by writing a temp file and renaming it over. A crash at any point leaves the old
 * pointer and the old snapshot as they were.
 */

const STAGING_PREFIX = '.staging-';

export function createStagingDir(distDir: string): string {
  mkdirSync(join(distDir, SNAPSHOTS_DIR), { recursive: true });
  return createWorkDir(distDir, STAGING_PREFIX);
}

/**
 * A directory of this process's own in `distDir`, named `<prefix><pid>-<random>`, after removing
 * those of the same prefix whose process is gone (a compile killed with SIGKILL leaves its
 * directory behind; the next one clears it).
 */
export function createWorkDir(distDir: string, prefix: string): string {
  mkdirSync(distDir, { recursive: true });
  removeAbandoned(distDir, prefix);
  const dir = join(distDir, `${prefix}${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir);
  return dir;
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * Moves a complete staging directory into place and points `current` at it. Every file is made
 * durable first but the `linked` ones: hard links to the shards of a snapshot published before,
 * whose bytes were made durable then (their new names are, with the directory). A delta or a
 * takedown links every shard of the snapshot in service, and an fsync of each cost 12-16 ms here
 * (44 shards at 1M: 0.5-0.7 s of a delta's publish).
 */
export function publishSnapshot(distDir: string, stagingDir: string, buildId: string, keep = 3, linked: ReadonlySet<string> = NO_NAMES): string {
  for (const name of readdirSync(stagingDir)) if (!linked.has(name)) fsyncPath(join(stagingDir, name));
  fsyncPath(stagingDir);
  const relative = `${SNAPSHOTS_DIR}/${buildId}`;
  const target = join(distDir, relative);
  if (existsSync(target)) {
    // Same build id means same input and compiler: swap in the fresh copy all the same, since
    // the old one may have been damaged on disk.
    const trash = join(distDir, `${STAGING_PREFIX}trash-${randomBytes(4).toString('hex')}`);
    renameSync(target, trash);
    renameSync(stagingDir, target);
    rmSync(trash, { recursive: true, force: true });
  } else {
    renameSync(stagingDir, target);
  }
  fsyncPath(join(distDir, SNAPSHOTS_DIR));
  const pointerTemp = join(distDir, `${CURRENT_FILE}.${process.pid}.tmp`);
  writeFileSync(pointerTemp, `${relative}\n`);
  fsyncPath(pointerTemp);
  renameSync(pointerTemp, join(distDir, CURRENT_FILE));
  fsyncPath(distDir);
  pruneSnapshots(distDir, buildId, keep);
  return target;
}

/** Keeps the current snapshot and the `keep - 1` most recent others. */
function pruneSnapshots(distDir: string, currentBuildId: string, keep: number): void {
  const root = join(distDir, SNAPSHOTS_DIR);
  const others = readdirSync(root)
    .filter((name) => name !== currentBuildId)
    .map((name) => ({ name, mtime: statSync(join(root, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime || a.name.localeCompare(b.name));
  for (const old of others.slice(Math.max(0, keep - 1))) {
    rmSync(join(root, old.name), { recursive: true, force: true });
  }
}

function removeAbandoned(distDir: string, prefix: string): void {
  for (const name of readdirSync(distDir)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) continue;
    rmSync(join(distDir, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves what a user names on the command line: a snapshot directory itself (it holds a
 * manifest) or a dist directory (it holds a `current` pointer).
 */
export function resolveSnapshotDir(path: string): string {
  const full = resolve(path);
  if (existsSync(join(full, MANIFEST_FILE))) return full;
  const pointer = join(full, CURRENT_FILE);
  if (existsSync(pointer)) {
    const relative = readFileSync(pointer, 'utf8').trim();
    if (!/^snapshots\/[0-9a-z]+$/.test(relative)) {
      throw new FormatError('E_SNAPSHOT_MISSING', `current pointer holds ${JSON.stringify(relative)}`, pointer);
    }
    const dir = join(full, relative);
    if (!existsSync(join(dir, MANIFEST_FILE))) {
      throw new FormatError('E_SNAPSHOT_MISSING', `current points at ${relative}, which has no manifest`, pointer);
    }
    return dir;
  }
  throw new FormatError('E_SNAPSHOT_MISSING', 'neither a snapshot (no manifest.omm) nor a dist directory (no current)', full);
}
