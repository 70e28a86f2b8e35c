import { opendir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ImportError } from '../import-error.js';

const isXml = (name: string): boolean => name.toLowerCase().endsWith('.xml');

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

async function* walk(dir: string, visited: Set<string>): AsyncGenerator<string> {
  const real = await realpath(dir);
  if (visited.has(real)) return; // a symbolic link back up the tree
  visited.add(real);
  for (const name of await sortedEntries(dir)) {
    const path = join(dir, name);
    const info = await statOf(path);
    if (info.isDirectory()) yield* walk(path, visited);
    else if (info.isFile() && isXml(name)) yield path;
  }
}

/**
 * The message files of the inputs, in order: a file as given, a directory's `*.xml` files at any
 * depth, each directory's entries in sorted order, named by the directory as given joined with
 * the path below it. Every input is checked first, so a mistyped one fails before anything is
 * read. Directories are walked lazily: only one directory's listing per level is held.
 */
export async function* messageFiles(inputs: readonly string[]): AsyncGenerator<string> {
  const kinds = await Promise.all(inputs.map(async (input) => (await statOf(input)).isDirectory()));
  for (let i = 0; i < inputs.length; i++) {
    if (kinds[i]) yield* walk(inputs[i], new Set());
    else yield inputs[i];
  }
}
