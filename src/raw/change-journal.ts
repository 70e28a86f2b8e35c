import { closeSync, existsSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * The change journal (docs/raw-format.md, "The change journal"): what each delivery applied with
 * `--into` changed in the raw catalog, so that a compile of the next delta reads the delivery,
 * not the catalog (docs/segments.md). `raw/.omm-changes/<sequence>.jsonl`, one file per import
 * that changed something, numbered from 1; one line per resource: `{"type", "id", "change"}`,
 * change `added`, `updated` or `removed`, in the order the import wrote the raw catalog (albums,
 * songs, artists, each by id). An import that changed nothing adds no file.
 */
export const CHANGES_DIR = '.omm-changes';

export type ChangedType = 'album' | 'song' | 'artist';
export type Change = 'added' | 'updated' | 'removed';

export interface ChangeLine {
  readonly type: ChangedType;
  readonly id: string;
  readonly change: Change;
}

const FILE = /^(\d{6,})\.jsonl$/;

/** A journal line that cannot be read: the file and line named (code E_RAW_JOURNAL). */
export class ChangeJournalError extends Error {
  readonly code = 'E_RAW_JOURNAL';

  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${file}:${line}: ${detail} [E_RAW_JOURNAL]`);
  }
}

/** Bytes buffered before a write. */
const FLUSH_BYTES = 64 * 1024;

/** The journal's files in `rawDir`, by sequence ascending. */
export function journalFiles(rawDir: string): { sequence: number; path: string }[] {
  const dir = join(rawDir, CHANGES_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => ({ name, match: FILE.exec(name) }))
    .filter((f): f is { name: string; match: RegExpExecArray } => f.match !== null)
    .map((f) => ({ sequence: Number(f.match[1]), path: join(dir, f.name) }))
    .sort((a, b) => a.sequence - b.sequence);
}

/** The sequence of the journal's last file; 0 without a journal. */
export function journalPosition(rawDir: string): number {
  const files = journalFiles(rawDir);
  return files.length === 0 ? 0 : files[files.length - 1].sequence;
}

/** The changes the journal records after `position` (a compile's journal position), file by file. */
export function* changesAfter(rawDir: string, position: number): Generator<ChangeLine & { sequence: number }> {
  for (const file of journalFiles(rawDir)) {
    if (file.sequence <= position) continue;
    const lines = readFileSync(file.path, 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].length === 0) continue;
      let line: ChangeLine;
      try {
        line = JSON.parse(lines[i]) as ChangeLine;
      } catch {
        throw new ChangeJournalError(file.path, i + 1, 'a change journal line is not JSON');
      }
      yield { ...line, sequence: file.sequence };
    }
  }
}

/**
 * Writes one import's journal file into the work directory's raw catalog (`rawDir`), after the
 * files of the catalog it is applied to (`previousDir`), which are linked in unchanged: the
 * journal is published with the raw catalog, or not at all.
 */
export class ChangeJournalWriter {
  private fd: number | null = null;
  private readonly path: string;
  private pending: string[] = [];
  private pendingBytes = 0;
  private lines = 0;

  constructor(rawDir: string, previousDir: string) {
    const dir = join(rawDir, CHANGES_DIR);
    mkdirSync(dir, { recursive: true });
    let last = 0;
    for (const file of journalFiles(previousDir)) {
      linkSync(file.path, join(dir, basename(file.path)));
      last = file.sequence;
    }
    this.path = join(dir, `${String(last + 1).padStart(6, '0')}.jsonl`);
  }

  note(type: ChangedType, id: string, change: Change): void {
    const line = `${JSON.stringify({ type, id, change })}\n`;
    this.pending.push(line);
    this.pendingBytes += line.length;
    this.lines++;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
  }

  /** Closes the file; an import that changed nothing leaves none. Returns the lines written. */
  finish(): number {
    this.flush();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    return this.lines;
  }

  /** Closes without caring (a failed import: its work directory is removed). */
  abandon(): void {
    try {
      if (this.fd !== null) closeSync(this.fd);
    } catch {
      // the work directory goes anyway
    }
    this.fd = null;
    rmSync(this.path, { force: true });
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.fd ??= openSync(this.path, 'wx');
    writeSync(this.fd, this.pending.join(''));
    this.pending = [];
    this.pendingBytes = 0;
  }
}
