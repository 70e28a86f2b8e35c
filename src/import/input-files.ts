import { opendir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ImportError } from './import-error.js';

/** A file an importer may read: given by name on the command line, or found in a directory. */
export interface InputPath {
  readonly path: string;
  /** Named as an input itself (read whatever its name), not found by walking a directory. */
  readonly named: boolean;
  readonly size: number;
}

async function statOf(path: string) {
  try {
    return await stat(path);
  } catch (err) {
    throw new ImportError('E_IMPORT_IO', { file: path }, `cannot read the input: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/** A directory's entries, sorted by name (UTF-16 code units, so the order is the same everywhere). */
async function sortedEntries(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of await opendir(dir)) names.push(entry.name);
  } catch (err) {
    throw new ImportError('E_IMPORT_IO', { file: dir }, `cannot read the directory: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

async function* walk(dir: string, visited: Set<string>): AsyncGenerator<InputPath> {
  const real = await realpath(dir);
  if (visited.has(real)) return; // a symbolic link back up the tree
  visited.add(real);
  for (const name of await sortedEntries(dir)) {
    const path = join(dir, name);
    const info = await statOf(path);
    if (info.isDirectory()) yield* walk(path, visited);
    else if (info.isFile()) yield { path, named: false, size: info.size };
  }
}

/**
 * The files of the inputs, in order: a file as given, a directory's files at any depth, each
 * directory's entries in sorted order, named by the directory as given joined with the path
 * below it (symbolic links followed, each directory once). Every input is checked first, so a
 * mistyped one fails (E_IMPORT_IO) before anything is read. Directories are walked lazily: only
 * one directory's listing per level is held. Which files a format reads is its own choice.
 */
export async function* inputFiles(inputs: readonly string[]): AsyncGenerator<InputPath> {
  const stats = await Promise.all(inputs.map((input) => statOf(input)));
  for (let i = 0; i < inputs.length; i++) {
    if (stats[i].isDirectory()) yield* walk(inputs[i], new Set());
    else yield { path: inputs[i], named: true, size: stats[i].size };
  }
}
