import { CHANGES_DIR } from '../../raw/change-journal.js';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ImportError } from '../import-error.js';
import { STATE_DIR } from './stage-state.js';

/**
 * Where a streamed import works and how it publishes: a work directory beside the output
 * (`.<out>.import-<pid>-<n>`, holding the sorters' spill and the new raw files), renamed into
 * place only when the import succeeded. A failed import removes its work directory and leaves the
 * previous output as it was; one killed outright leaves a work directory that the next import
 * into the same output removes (its process is gone).
 */
export class ImportWorkDir {
  readonly path: string;
  readonly spill: string;
  readonly raw: string;
  private readonly out: string;

  constructor(out: string) {
    this.out = resolve(out);
    const parent = dirname(this.out);
    mkdirSync(parent, { recursive: true });
    removeAbandoned(parent, basename(this.out));
    refuseToReplace(this.out);
    this.path = join(parent, `.${basename(this.out)}.import-${process.pid}-${Date.now().toString(36)}`);
    this.spill = join(this.path, 'spill');
    this.raw = join(this.path, 'raw');
    mkdirSync(this.spill, { recursive: true });
    mkdirSync(this.raw, { recursive: true });
  }

  /** Puts the new raw directory where the output goes, replacing the previous one. */
  publish(): void {
    const old = `${this.path}.previous`;
    const hadPrevious = existsSync(this.out);
    if (hadPrevious) renameSync(this.out, old);
    try {
      renameSync(this.raw, this.out);
    } catch (err) {
      if (hadPrevious) renameSync(old, this.out);
      throw new ImportError('E_IMPORT_IO', { file: this.out }, `cannot publish the import: ${(err as Error).message}`);
    }
    rmSync(old, { recursive: true, force: true });
    this.remove();
  }

  remove(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

/** The output may be replaced only when it is absent, or a directory of CSV files (a raw catalog), an import's state and its change journal. */
function refuseToReplace(out: string): void {
  const stat = statSync(out, { throwIfNoEntry: false });
  if (!stat) return;
  if (!stat.isDirectory()) throw new ImportError('E_IMPORT_IO', { file: out }, 'the output exists and is not a directory');
  const foreign = readdirSync(out).filter((name) => !name.endsWith('.csv') && name !== STATE_DIR && name !== CHANGES_DIR);
  if (foreign.length > 0) {
    throw new ImportError(
      'E_IMPORT_IO',
      { file: out },
      `refusing to replace a directory that is not a raw catalog (it holds ${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', ...' : ''})`,
    );
  }
}

/**
 * Work directories of imports into `name` whose process is gone. One killed between the two
 * renames of publish left the previous output at `<work>.previous` and none at `name`: that
 * previous output goes back into place (the new one was never published).
 */
function removeAbandoned(parent: string, name: string): void {
  const prefix = `.${name}.import-`;
  for (const entry of readdirSync(parent).sort()) {
    if (!entry.startsWith(prefix)) continue;
    const pid = Number(entry.slice(prefix.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
    const path = join(parent, entry);
    if (entry.endsWith('.previous') && !existsSync(join(parent, name))) renameSync(path, join(parent, name));
    else rmSync(path, { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
