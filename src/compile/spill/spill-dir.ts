import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkDir } from '../../index-format/publish.js';

/** Spill directories are named `.spill-<pid>-<random>` in the dist directory. */
export const SPILL_PREFIX = '.spill-';

/**
 * The compile's scratch directory: sorted runs and column files, beside the output so they land
 * on the same disk. Made by `createWorkDir`, which first removes any left behind by a process
 * that is gone (a compile killed with SIGKILL); `remove()` runs on success and on failure.
 */
export class SpillDir {
  private next = 0;

  private constructor(
    readonly path: string,
    private readonly prefix = '',
  ) {}

  static create(distDir: string): SpillDir {
    return new SpillDir(createWorkDir(distDir, SPILL_PREFIX));
  }

  /**
   * The same directory seen from another thread: paths it hands out carry `prefix`, so they
   * never clash with the owner's. The owner still removes the directory.
   */
  static attach(path: string, prefix: string): SpillDir {
    return new SpillDir(path, prefix);
  }

  /** A fresh file name (no directory) for a sorter's runs: `<prefix><n>-<name>`. */
  name(label: string): string {
    return `${this.prefix}${String(this.next++).padStart(4, '0')}-${label}`;
  }

  /** A fresh path in the directory: `<prefix><n>-<name>`, never handed out twice. */
  file(name: string): string {
    return join(this.path, `${this.prefix}${String(this.next++).padStart(4, '0')}-${name}`);
  }

  remove(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}
