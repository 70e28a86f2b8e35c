import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHANGES_DIR } from './change-journal.js';

/*
 * What the last streamed import knew of the raw files it wrote (`raw/.omm-changes/files.json`):
 * each file's size, rows, SHA-256 and that its rows are in order of their first column (an id),
 * with the file's modification time and inode as it left them. A compile of a delta (which names
 * the raw files in its manifest exactly as a full compile would) takes a file's size, rows and
 * digest from here instead of reading it, and reads only the rows of the ids it needs, when the
 * file is still the one the import wrote: same size, modification time and inode. Anything else
 * (an edited file, a copy, no facts) is read and hashed in full, as before.
 */
export const FILE_FACTS = 'files.json';

export interface FileFacts {
  readonly size: number;
  /** Rows after the header. */
  readonly rows: number;
  readonly sha256: string;
  readonly mtimeMs: number;
  readonly ino: number;
  /** The rows are in order of their first column, compared as bytes (the streamed importers' files). */
  readonly byFirstColumn: boolean;
}

/** Records `files` (name -> rows and SHA-256) as written in `rawDir`, taking size, time and inode from the files themselves. */
export function writeFileFacts(rawDir: string, files: Readonly<Record<string, { rows: number; sha256: string }>>): void {
  const out: Record<string, FileFacts> = {};
  for (const name of Object.keys(files).sort()) {
    const stat = statSync(join(rawDir, name));
    out[name] = { size: stat.size, rows: files[name].rows, sha256: files[name].sha256, mtimeMs: stat.mtimeMs, ino: stat.ino, byFirstColumn: true };
  }
  mkdirSync(join(rawDir, CHANGES_DIR), { recursive: true });
  writeFileSync(join(rawDir, CHANGES_DIR, FILE_FACTS), `${JSON.stringify({ format: 1, files: out }, null, 2)}\n`);
}

/** The facts of `rawDir`'s files that still hold (size, modification time and inode unchanged), by file name. */
export function currentFileFacts(rawDir: string): Map<string, FileFacts> {
  const out = new Map<string, FileFacts>();
  const path = join(rawDir, CHANGES_DIR, FILE_FACTS);
  if (!existsSync(path)) return out;
  let parsed: { format?: number; files?: Record<string, FileFacts> };
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return out;
  }
  if (parsed.format !== 1 || !parsed.files) return out;
  for (const [name, facts] of Object.entries(parsed.files)) {
    const stat = statSync(join(rawDir, name), { throwIfNoEntry: false });
    if (stat && stat.size === facts.size && stat.mtimeMs === facts.mtimeMs && stat.ino === facts.ino) out.set(name, facts);
  }
  return out;
}
