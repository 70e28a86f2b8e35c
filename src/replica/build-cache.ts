import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveSnapshotDir } from '../index-format/index.js';
import { MANIFEST_FILE, SNAPSHOTS_DIR } from '../index-format/manifest.js';
import { publishSnapshot } from '../index-format/publish.js';
import { type BuildDescriptor, chunkSpans, parseDescriptor } from '../object-store/index.js';

/** Where a chunk's bytes already are on this host. */
export interface LocalChunk {
  readonly path: string;
  readonly offset: number;
  readonly length: number;
}

const DOWNLOAD_PREFIX = '.download-';
const DESCRIPTORS = 'builds';

/**
 * A replica's cache directory: an ordinary dist directory (`current`, `snapshots/<build id>/`,
 * so the server follows it as it follows a compile's), plus the descriptor of every cached build
 * (`builds/<id>.json`: where each chunk lies, so the next build copies what it shares instead of
 * fetching it) and at most a few downloads in progress (`.download-<id>/`, resumed after a
 * restart; never served: only a complete, verified build is renamed into `snapshots/`).
 */
export class BuildCache {
  constructor(
    readonly dir: string,
    /** Builds kept, the one in service included. */
    readonly keep: number,
  ) {
    mkdirSync(join(dir, DESCRIPTORS), { recursive: true });
    mkdirSync(join(dir, SNAPSHOTS_DIR), { recursive: true });
  }

  /** The build `current` names, when it is complete; null when there is none. */
  currentBuildId(): string | null {
    try {
      const snapshotDir = resolveSnapshotDir(this.dir);
      return snapshotDir.slice(snapshotDir.lastIndexOf('/') + 1);
    } catch {
      return null;
    }
  }

  downloadDir(buildId: string): string {
    const dir = join(this.dir, `${DOWNLOAD_PREFIX}${buildId}`);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** Every chunk of the cached builds, by digest. */
  localChunks(): Map<string, LocalChunk> {
    const found = new Map<string, LocalChunk>();
    for (const name of readdirSync(join(this.dir, DESCRIPTORS))) {
      const buildId = name.replace(/\.json$/, '');
      const snapshotDir = join(this.dir, SNAPSHOTS_DIR, buildId);
      if (!existsSync(join(snapshotDir, MANIFEST_FILE))) continue;
      let descriptor: BuildDescriptor;
      try {
        descriptor = parseDescriptor(readFileSync(join(this.dir, DESCRIPTORS, name)), name);
      } catch {
        continue; // a damaged copy only costs a fetch
      }
      for (const file of descriptor.files)
        for (const { sha256, offset, length } of chunkSpans(file))
          if (!found.has(sha256)) found.set(sha256, { path: join(snapshotDir, file.name), offset, length });
    }
    return found;
  }

  /**
   * Puts a complete, verified download in service: renamed into `snapshots/`, `current` flipped
   * (index-format's atomic publish, which also keeps only the newest `keep` builds), its
   * descriptor kept beside it; then drops what no longer belongs to a cached build.
   */
  install(buildId: string, workDir: string, descriptorBytes: Uint8Array): string {
    writeFileSync(join(this.dir, DESCRIPTORS, `${buildId}.json`), descriptorBytes);
    const target = publishSnapshot(this.dir, workDir, buildId, this.keep);
    const cached = new Set(readdirSync(join(this.dir, SNAPSHOTS_DIR)));
    for (const name of readdirSync(join(this.dir, DESCRIPTORS)))
      if (!cached.has(name.replace(/\.json$/, ''))) rmSync(join(this.dir, DESCRIPTORS, name), { force: true });
    for (const name of readdirSync(this.dir)) if (name.startsWith(DOWNLOAD_PREFIX)) rmSync(join(this.dir, name), { recursive: true, force: true });
    return target;
  }
}
